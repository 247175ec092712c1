// Starts DynamoDB Local listening on one address only (docs/security.md, "Local parts on loopback").
// DynamoDB Local has no option for the address: its Jetty server listens on every interface, with no authentication.
// This launcher builds the server from the usual command-line options, points its connectors at the address given
// first, then starts it. `java` runs this file as a single-file source program (Java 11+), so nothing is compiled
// into the repository. ServerRunner.main is not used, so DynamoDB Local's telemetry is never set up either.
//
// Usage: java -cp DynamoDBLocal.jar LoopbackDynamoDB.java <address> [DynamoDB Local options...]

import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) throw new IllegalArgumentException("usage: LoopbackDynamoDB <address> [DynamoDB Local options...]");
    String address = args[0];
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    // The Jetty server is a private field; a DynamoDB Local that renames it fails here instead of listening everywhere.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) throw new IllegalStateException("Unexpected DynamoDB Local connector " + connector);
      ((ServerConnector) connector).setHost(address);
    }
    proxy.start();
    System.out.println("DynamoDB Local listening on " + address);
  }
}
