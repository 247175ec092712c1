// Bundle mode's functions, started (docs/architecture.md, "Bundle mode"): every function of the synthesized stack in a
// worker thread of its own with its own environment — those fed by a queue or a schedule at once, the API's and the
// email function at their first call (a cold start) — the gateway's routes from the template's, and SES's stand-in.
import { MESSAGING_VARIABLES } from '../config-messaging.ts';
import { logger } from '../logger.ts';
import { startHosts } from './background.ts';
import { bundlePlan, type LocalResources } from './bundles.ts';
import type { FunctionHost } from './function-host.ts';
import type { ApiRouter } from './gateway.ts';
import type { LocalQueues } from './queues.ts';
import { compileRouteKeys, selectRoute } from './route-keys.ts';
import { sesStandIn } from './ses.ts';
import type { MailIntake } from './smtp-inbound.ts';
import type { SynthesizedStack } from './template.ts';
import { startThreadHost } from './threads.ts';

/** The provider secret's variables (docs/notifications.md, "On AWS"): the messaging settings that are not wiring. */
const NOT_IN_SECRET = new Set(['HARK_PUBLIC_URL', 'HARK_LOCAL_INBOX', 'HARK_SNS_CERT_DIR', 'HARK_INBOUND_EMAIL_DOMAIN', 'HARK_INBOUND_EMAIL_BUCKET', 'HARK_SMTP_INBOUND_PORT']);
export const SECRET_VARIABLES = Object.keys(MESSAGING_VARIABLES).filter((name) => !NOT_IN_SECRET.has(name));
/** Local-only settings every bundle gets from this process: faster time, offline SNS certificates. */
const LOCAL_SETTINGS = ['HARK_TIME_SCALE', 'HARK_SNS_CERT_DIR'];
/** The S3 emulator's stand-in for the inbound mail bucket. */
export const LOCAL_MAIL_BUCKET = 'hark-inbound-mail';

export interface BundleFunctions {
  router: ApiRouter;
  background: FunctionHost;
  /** SES's stand-in, when the stack receives mail (hark:inboundEmailDomain). */
  mailIntake: MailIntake | undefined;
  functionCount: number;
  stop(): Promise<void>;
}

const pick = (names: readonly string[], env: NodeJS.ProcessEnv) => Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]!]])));

export function localResources(queues: LocalQueues, tableName: string, publicUrl: string, shortScheduleMs: number, env: NodeJS.ProcessEnv = process.env): LocalResources {
  const region = env.AWS_REGION ?? 'us-east-1';
  return {
    region,
    tableName,
    queueUrls: {
      ingest: queues.ingestQueueUrl,
      ingestDlq: queues.ingestDlqUrl,
      timers: queues.timersQueueUrl,
      timersDlq: queues.timersDlqUrl,
      webhooks: queues.webhooksQueueUrl,
      webhooksDlq: queues.webhooksDlqUrl,
    },
    publicUrl,
    mailBucket: LOCAL_MAIL_BUCKET,
    wiring: {
      HARK_DYNAMODB_ENDPOINT: env.HARK_DYNAMODB_ENDPOINT!,
      HARK_SQS_ENDPOINT: queues.endpoint,
      // The emulator's S3 (the inbound mail bucket): the SDK's own endpoint setting, an IP address, so path-style.
      AWS_ENDPOINT_URL_S3: queues.endpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...pick(LOCAL_SETTINGS, env),
    },
    secretVariables: pick(SECRET_VARIABLES, env),
    shortScheduleMs,
  };
}

export async function startBundleFunctions(stack: SynthesizedStack, local: LocalResources, s3Endpoint: string): Promise<BundleFunctions> {
  const plan = bundlePlan(stack, local, logger.getLevelName());
  const background = plan.functions.filter((f) => f.queues.length > 0 || f.schedules.length > 0);
  const hosts = await startHosts(
    background.map((f) => ({ name: f.spec.name, functions: [f], environment: f.spec.environment! })),
    'threads',
  );
  // The others start at their first call.
  const onDemand = new Map<string, FunctionHost>();
  const hostOf = (name: string): FunctionHost => {
    if (background.some((f) => f.spec.name === name)) return hosts;
    let host = onDemand.get(name);
    if (!host) {
      const fn = plan.functions.find((f) => f.spec.name === name);
      if (!fn) throw new Error(`The stack has no function ${name}`);
      host = startThreadHost({ name, functions: [{ ...fn, queues: [], schedules: [] }], environment: fn.spec.environment! });
      onDemand.set(name, host);
    }
    return host;
  };
  const compiled = compileRouteKeys(plan.routes.map((r) => r.routeKey));
  const functionOfRoute = new Map(plan.routes.map((r) => [r.routeKey, r.functionName]));
  const fallback = functionOfRoute.get('$default');
  const router: ApiRouter = (method, path) => {
    const route = selectRoute(compiled, method, path);
    const name = route ? functionOfRoute.get(route.routeKey)! : fallback;
    if (!name) throw new Error(`No route of the stack takes ${method} ${path} and it has no $default route`);
    return { routeKey: route?.routeKey ?? '$default', params: route?.params ?? {}, invoke: (event) => hostOf(name).invoke(name, event) };
  };
  const mail = plan.mail;
  const mailIntake = mail
    ? await sesStandIn({ s3Endpoint, region: local.region, bucket: local.mailBucket, rule: mail, invoke: (event) => hostOf(mail.functionName).invoke(mail.functionName, event) })
    : undefined;
  return {
    router,
    background: hosts,
    mailIntake,
    functionCount: plan.functions.length,
    stop: async () => {
      await Promise.all([hosts.stop(), ...[...onDemand.values()].map((h) => h.stop())]);
    },
  };
}
