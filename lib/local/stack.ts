// The embedded local stack: DynamoDB Local, the SQS emulator, the API Gateway-like gateway and the background
// functions with their queue pollers and the sweeper's interval, wired through the same environment variables the
// Lambdas read on AWS. Source mode runs functions/*.ts; bundle mode the esbuild bundles of cdk.out (lib/local/bundles.ts).

import type { Server } from 'node:http';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { startDynamo, ensureTable } from './dynamo.ts';
import { startBundleFunctions, localResources } from './bundle-stack.ts';
import { sourceRouter, startGateway, type ApiRouter } from './gateway.ts';
import { readSynthesizedStack } from './template.ts';
import { sweepIntervalMs } from './timers.ts';
import { sourceBackground, startHosts, type Isolation } from './background.ts';
import type { Poller } from './poller.ts';
import { freePort, listenError } from './ports.ts';
import { localLinkSecret } from './link-secret.ts';
import { DYNAMODB_FOLDER, QUEUES_FOLDER } from './private-data.ts';
import { startQueues } from './queues.ts';
import { startSmtpListener } from './smtp-inbound.ts';
import { config } from '../config.ts';

export interface StackOptions {
  /** Persist DynamoDB and queue state here; undefined keeps everything in memory (tests). */
  dataDir: string | undefined;
  port: number;
  host?: string;
  tableName?: string;
  /** Seconds a received message stays hidden before a retry; short in tests so DLQ redrive is quick. */
  visibilityTimeoutSeconds?: number;
  /**
   * Runs once DynamoDB and the queues are up and the environment points at them, before the gateway
   * listens: whatever the first request needs (the admin key) exists by the time the port accepts it.
   */
  beforeListen?: () => Promise<void>;
  /** The SMTP listener's port for email integrations (0: any free port); default HARK_SMTP_INBOUND_PORT, unset: off. */
  smtpPort?: number;
  /**
   * Where the background functions run: `threads` (npm start) each group in a worker thread of its own, off the
   * gateway's event loop; `none` (the default) on this thread, for tests that install delivery adapters in-process.
   * docs/decisions/0033-functions-in-threads-locally.md.
   */
  isolation?: Isolation;
  /**
   * Bundle mode: serve every route, queue, schedule and mail from the bundles of the synthesized app in this cdk.out
   * folder (`npm run synth` first), each function in its own thread with the template's environment (lib/local/bundles.ts).
   */
  bundles?: string;
}

export interface RunningStack {
  baseUrl: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  ingestQueueUrl: string;
  ingestDlqUrl: string;
  timersQueueUrl: string;
  timersDlqUrl: string;
  webhooksQueueUrl: string;
  tableName: string;
  /** The worker's receive loops on the ingest queue; the benchmarks pause them to time the webhook alone. */
  ingestWorker: Pick<Poller, 'pause' | 'resume'>;
  /** The key action links are signed with (HARK_LINK_SECRET, or generated). */
  linkSecret: string;
  /** The port of the SMTP listener for email integrations, when it is on. */
  smtpPort?: number;
  /** Bundle mode: how many functions the synthesized stack has. */
  bundledFunctions?: number;
  stop(): Promise<void>;
}

/** The URL a client uses to reach a gateway listening on host:port (any-address hosts are reached on loopback). */
export function baseUrlOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIPv6(reachable) ? `[${reachable}]` : reachable}:${port}`;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const tableName = options.tableName ?? 'hark';
  // A missing or unreadable cdk.out stops the start before anything slow runs.
  const synthesized = options.bundles === undefined ? undefined : readSynthesizedStack(options.bundles);
  const [dynamoPort, sqsPort] = [await freePort(), await freePort()];
  const dynamo = await startDynamo({ dataDir: options.dataDir && join(options.dataDir, DYNAMODB_FOLDER), port: dynamoPort });
  const stops: (() => Promise<void>)[] = [dynamo.stop];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    await ensureTable(dynamo.endpoint, tableName);
    const queues = await startQueues({
      dataDir: options.dataDir && join(options.dataDir, QUEUES_FOLDER),
      port: sqsPort,
      visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 30,
    });
    stops.push(queues.stop);
    Object.assign(process.env, {
      HARK_TABLE_NAME: tableName,
      HARK_DYNAMODB_ENDPOINT: dynamo.endpoint,
      HARK_SQS_ENDPOINT: queues.endpoint,
      HARK_INGEST_QUEUE_URL: queues.ingestQueueUrl,
      HARK_TIMERS_QUEUE_URL: queues.timersQueueUrl,
      HARK_WEBHOOKS_QUEUE_URL: queues.webhooksQueueUrl,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      HARK_LINK_SECRET: localLinkSecret(options.dataDir, process.env.HARK_LINK_SECRET),
    });
    await options.beforeListen?.();
    const host = options.host ?? '127.0.0.1';
    // Bundle mode's routes exist once the gateway's URL is known (the functions' HARK_PUBLIC_URL): set right after listen.
    let settle!: { resolve: (router: ApiRouter) => void; reject: (error: unknown) => void };
    const bundleRouter = { promise: new Promise<ApiRouter>((resolve, reject) => (settle = { resolve, reject })), resolve: (r: ApiRouter) => settle.resolve(r), reject: (e: unknown) => settle.reject(e) };
    // Until then a request waits; a failed start answers it with an error (and the start itself fails).
    bundleRouter.promise.catch(() => undefined);
    const router: ApiRouter = synthesized ? async (method, path) => (await bundleRouter.promise)(method, path) : sourceRouter();
    const server: Server = await startGateway(options.port, host, router).catch((error: unknown) => {
      throw listenError(error, options.port, host);
    });
    stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.closeIdleConnections?.();
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    // Links in messages lead back to this gateway unless HARK_PUBLIC_URL names the address people reach.
    if (!process.env.HARK_PUBLIC_URL) {
      process.env.HARK_PUBLIC_URL = baseUrlOf(host, port);
      stops.push(async () => void delete process.env.HARK_PUBLIC_URL);
    }
    const bundles = synthesized
      ? await startBundleFunctions(synthesized, localResources(queues, tableName, config().links.publicUrl ?? baseUrlOf(host, port), sweepIntervalMs()), queues.endpoint).catch((error: unknown) => {
          bundleRouter.reject(error);
          throw error;
        })
      : undefined;
    if (bundles) bundleRouter.resolve(bundles.router);
    const background = bundles?.background ?? (await startHosts(sourceBackground(queues), options.isolation ?? 'none'));
    stops.push(bundles?.stop ?? background.stop);
    const ingestWorker: Pick<Poller, 'pause' | 'resume'> = { pause: () => background.pause(queues.ingestQueueUrl), resume: () => background.resume(queues.ingestQueueUrl) };
    const smtpPort = options.smtpPort ?? config().inbound.smtpPort;
    const smtp = smtpPort === undefined ? undefined : await startSmtpListener(smtpPort, host, bundles?.mailIntake).catch((error: unknown) => {
      throw listenError(error, smtpPort, host);
    });
    if (smtp) stops.push(smtp.stop);
    return {
      baseUrl: baseUrlOf(host, port),
      dynamoEndpoint: dynamo.endpoint,
      sqsEndpoint: queues.endpoint,
      ingestQueueUrl: queues.ingestQueueUrl,
      ingestDlqUrl: queues.ingestDlqUrl,
      timersQueueUrl: queues.timersQueueUrl,
      timersDlqUrl: queues.timersDlqUrl,
      webhooksQueueUrl: queues.webhooksQueueUrl,
      tableName,
      ingestWorker,
      linkSecret: process.env.HARK_LINK_SECRET!,
      ...(smtp ? { smtpPort: smtp.port } : {}),
      ...(bundles ? { bundledFunctions: bundles.functionCount } : {}),
      stop: async () => {
        server.closeAllConnections?.();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
