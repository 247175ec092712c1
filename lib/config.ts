// Every environment variable Hark reads, parsed by one zod schema (docs/configuration.md). A bad value
// stops the process that reads it: `npm start` before it starts anything, a Lambda at its cold start,
// each with one line naming the variable and what it accepts. The variables themselves (the settings schema, data)
// are in config-variables.ts, config-messaging.ts and config-values.ts; this file reads them into a HarkConfig.
import { parseTimeScale, type EmailProvider, type SmsProvider, type TerminalLevel, type Variable } from './config-values.ts';
import { environmentSchema, VARIABLE_NAMES, VARIABLES, type Environment, type VariableName } from './config-variables.ts';

// The stable path for what callers read of the settings schema.
export { EMAIL_PROVIDERS, MIN_API_KEY_LENGTH, MIN_LINK_SECRET_LENGTH, SMS_PROVIDERS, TERMINAL_LEVELS, type EmailProvider, type SmsProvider, type TerminalLevel } from './config-values.ts';
export { environmentSchema, VARIABLE_NAMES, VARIABLES, type Environment, type VariableName } from './config-variables.ts';

export interface HarkConfig {
  tableName: string;
  region: string;
  /** Set only locally (DynamoDB Local); unset on AWS. */
  dynamoEndpoint: string | undefined;
  /** Set only locally (the SQS emulator); unset on AWS. */
  sqsEndpoint: string | undefined;
  ingestQueueUrl: string | undefined;
  /** The standard queue of timer wake-ups (docs/timers.md). */
  timersQueueUrl: string | undefined;
  /** The standard queue of outgoing webhook work (docs/outgoing-webhooks.md). */
  webhooksQueueUrl: string | undefined;
  /** HARK_WEBHOOK_ALLOWED_HOSTS, split: host names and CIDR ranges outgoing webhooks may reach though private. */
  webhookAllowedHosts: string[];
  /** HARK_TIME_SCALE: waits the escalation engine schedules are divided by it (docs/alerts.md). */
  timeScale: number;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** HARK_CONFIG_CACHE_MS: how long a create's configuration reads are served from memory (0: never; lib/db/config-cache.ts). */
  configCacheMs: number;
  logLevel: string;
  serviceName: string;
  /** Set only inside Lambda. */
  lambdaFunctionName: string | undefined;
  /** AWS: the Secrets Manager secret of provider credentials (lib/channel-adapters/secrets.ts). */
  secretsArn: string | undefined;
  /** SMS, voice and WhatsApp providers (docs/notifications.md, "SMS and voice", "WhatsApp"). */
  phone: PhoneConfig;
  /** Signed action links in messages (docs/notifications.md, "Signed links"). */
  links: { publicUrl: string | undefined; secret: string | undefined; previousSecret: string | undefined };
  /** HARK_LOCAL_INBOX: messages with no provider go to the local inbox (npm start; docs/console.md). */
  localInbox: boolean;
  /** Email delivery (docs/notifications.md, "Email"): no provider → email is not configured. */
  email: { provider: EmailProvider | undefined; smtpUrl: string | undefined; from: string };
  /** Push through ntfy (docs/notifications.md, "Push"): no URL → push is not configured. */
  ntfy: { url: string | undefined; token: string | undefined; topicKey: string | undefined };
  /** Slack (docs/notifications.md, "Slack"): no bot token → Slack is not configured. */
  slack: { botToken: string | undefined; signingSecret: string | undefined; apiUrl: string };
  /** Monitors that are not plain webhooks (docs/monitors.md): SNS certificates offline, the email integrations' domain and local SMTP port. */
  inbound: { snsCertDir: string | undefined; emailDomain: string | undefined; smtpPort: number | undefined; emailBucket: string | undefined };
  /** The local runtime's own settings (`npm start`, `npm run admin`). */
  local: { port: number; host: string; dataDir: string; apiKey: string | undefined; logLevel: TerminalLevel };
}

export interface PhoneConfig {
  smsProvider: SmsProvider | undefined;
  twilio: { accountSid: string | undefined; authToken: string | undefined; from: string | undefined; apiUrl: string; whatsappFrom: string | undefined; whatsappContentSid: string | undefined };
  endUserMessaging: { originationIdentity: string | undefined; configurationSet: string | undefined; endpoint: string | undefined };
}

/** A bad environment variable; the message is the whole one-line explanation. */
export class ConfigError extends Error {
  readonly variable: VariableName;
  constructor(variable: VariableName, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
    // One line wherever it is printed (a Lambda's init error included): the trace adds nothing here.
    this.stack = `${this.name}: ${message}`;
  }
}

function describe(name: VariableName, raw: string | undefined): string {
  const variable: Variable = VARIABLES[name];
  const got = raw === undefined ? 'nothing' : variable.secret ? `${raw.length} characters` : JSON.stringify(raw);
  return `${name} must be ${variable.accepts}, got ${got}`;
}

type RawEnvironment = Record<string, string | undefined>;

/** Parses an environment (pure); throws a ConfigError naming the first bad variable. */
export function parseEnvironment(env: RawEnvironment): HarkConfig {
  const raw = Object.fromEntries(VARIABLE_NAMES.map((name) => [name, env[name]]));
  const parsed = environmentSchema.safeParse(raw);
  if (!parsed.success) {
    const name = VARIABLE_NAMES.find((n) => parsed.error.issues.some((issue) => issue.path[0] === n)) ?? VARIABLE_NAMES[0]!;
    throw new ConfigError(name, describe(name, env[name]));
  }
  const e: Environment = parsed.data;
  const scale = parseTimeScale(e.HARK_TIME_SCALE, isDeployed(env));
  if (!scale.ok) throw new ConfigError('HARK_TIME_SCALE', scale.message);
  if (e.HARK_EMAIL_PROVIDER === 'smtp' && !e.HARK_SMTP_URL) throw new ConfigError('HARK_SMTP_URL', 'HARK_SMTP_URL must be set when HARK_EMAIL_PROVIDER is smtp');
  return {
    tableName: e.HARK_TABLE_NAME,
    region: e.AWS_REGION ?? e.AWS_DEFAULT_REGION ?? 'us-east-1',
    dynamoEndpoint: e.HARK_DYNAMODB_ENDPOINT,
    sqsEndpoint: e.HARK_SQS_ENDPOINT,
    ingestQueueUrl: e.HARK_INGEST_QUEUE_URL,
    timersQueueUrl: e.HARK_TIMERS_QUEUE_URL,
    webhooksQueueUrl: e.HARK_WEBHOOKS_QUEUE_URL,
    webhookAllowedHosts: e.HARK_WEBHOOK_ALLOWED_HOSTS ? e.HARK_WEBHOOK_ALLOWED_HOSTS.split(',') : [],
    timeScale: scale.scale,
    maxBodyBytes: e.HARK_MAX_BODY_BYTES,
    configCacheMs: e.HARK_CONFIG_CACHE_MS,
    logLevel: e.POWERTOOLS_LOG_LEVEL ?? 'INFO',
    serviceName: e.POWERTOOLS_SERVICE_NAME,
    lambdaFunctionName: e.AWS_LAMBDA_FUNCTION_NAME,
    secretsArn: e.HARK_SECRETS_ARN,
    phone: {
      smsProvider: e.HARK_SMS_PROVIDER,
      twilio: {
        accountSid: e.HARK_TWILIO_ACCOUNT_SID,
        authToken: e.HARK_TWILIO_AUTH_TOKEN,
        from: e.HARK_TWILIO_FROM,
        apiUrl: e.HARK_TWILIO_API_URL.replace(/\/+$/, ''),
        whatsappFrom: e.HARK_TWILIO_WHATSAPP_FROM,
        whatsappContentSid: e.HARK_TWILIO_WHATSAPP_CONTENT_SID,
      },
      endUserMessaging: {
        originationIdentity: e.HARK_SMS_ORIGINATION_IDENTITY,
        configurationSet: e.HARK_SMS_CONFIGURATION_SET,
        endpoint: e.HARK_END_USER_MESSAGING_ENDPOINT,
      },
    },
    links: { publicUrl: e.HARK_PUBLIC_URL, secret: e.HARK_LINK_SECRET, previousSecret: e.HARK_LINK_SECRET_PREVIOUS },
    localInbox: e.HARK_LOCAL_INBOX === '1',
    email: { provider: e.HARK_EMAIL_PROVIDER ?? (e.HARK_SMTP_URL ? 'smtp' : undefined), smtpUrl: e.HARK_SMTP_URL, from: e.HARK_MAIL_FROM },
    ntfy: { url: e.HARK_NTFY_URL, token: e.HARK_NTFY_TOKEN, topicKey: e.HARK_NTFY_TOPIC_KEY ?? e.HARK_LINK_SECRET },
    slack: { botToken: e.HARK_SLACK_BOT_TOKEN, signingSecret: e.HARK_SLACK_SIGNING_SECRET, apiUrl: e.HARK_SLACK_API_URL.replace(/\/+$/, '') },
    inbound: { snsCertDir: e.HARK_SNS_CERT_DIR, emailDomain: e.HARK_INBOUND_EMAIL_DOMAIN?.toLowerCase(), smtpPort: e.HARK_SMTP_INBOUND_PORT, emailBucket: e.HARK_INBOUND_EMAIL_BUCKET },
    local: { port: e.PORT, host: e.HOST, dataDir: e.HARK_DATA_DIR, apiKey: e.HARK_API_KEY, logLevel: e.HARK_LOG_LEVEL },
  };
}

/**
 * The variables that wire a process to its storage and queues: the local runtime sets them after it has
 * started DynamoDB Local and the queues, and tests point a process at their stack (and speed its time up
 * with HARK_TIME_SCALE). The others are settings read at start (`reloadConfig()` reads them again).
 */
const WIRING: VariableName[] = [
  'HARK_TABLE_NAME',
  'HARK_DYNAMODB_ENDPOINT',
  'HARK_SQS_ENDPOINT',
  'HARK_INGEST_QUEUE_URL',
  'HARK_TIMERS_QUEUE_URL',
  'HARK_WEBHOOKS_QUEUE_URL',
  'HARK_WEBHOOK_ALLOWED_HOSTS',
  'AWS_REGION',
  'HARK_TIME_SCALE',
  // The local runtime sets these once its gateway listens (a generated link key, its own URL).
  'HARK_PUBLIC_URL',
  'HARK_LINK_SECRET',
  'HARK_LOCAL_INBOX',
];

let cached: { wiring: (string | undefined)[]; config: HarkConfig; frozen: boolean } | undefined;

function wiringUnchanged(values: (string | undefined)[]): boolean {
  for (let i = 0; i < WIRING.length; i++) if (process.env[WIRING[i]!] !== values[i]) return false;
  return true;
}

/**
 * The configuration of this process, parsed once. Inside Lambda the environment cannot change, so it is
 * never read again; elsewhere it is parsed again when one of the wiring variables changed.
 */
export function config(): HarkConfig {
  if (cached && (cached.frozen || wiringUnchanged(cached.wiring))) return cached.config;
  return reloadConfig();
}

/** Parses the environment again now (for a process that changed a setting after its first use). */
export function reloadConfig(): HarkConfig {
  const wiring = WIRING.map((name) => process.env[name]);
  const parsed = parseEnvironment(process.env);
  cached = { wiring, config: parsed, frozen: parsed.lambdaFunctionName !== undefined };
  return parsed;
}

/** HARK_PUBLIC_URL without trailing slashes, ready for paths to be appended; undefined when it is not set. */
export const publicBaseUrlOf = (c: Pick<HarkConfig, 'links'>): string | undefined => c.links.publicUrl?.replace(/\/+$/, '');

/**
 * True on AWS Lambda (the runtime sets AWS_LAMBDA_FUNCTION_NAME) unless the local stand-ins are configured: the
 * local runtime and the tests always point HARK_DYNAMODB_ENDPOINT at DynamoDB Local.
 */
export function isDeployed(env: RawEnvironment = process.env): boolean {
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.HARK_DYNAMODB_ENDPOINT;
}

/**
 * HARK_TIME_SCALE: every wait the escalation engine schedules is divided by it (docs/alerts.md, "Faster time,
 * locally"). A whole number from 1 to 3600, default 1; a deployed stack accepts only 1. Throws the refusal.
 */
export function timeScale(env?: RawEnvironment): number {
  if (!env) return config().timeScale;
  const result = parseTimeScale(env.HARK_TIME_SCALE, isDeployed(env));
  if (!result.ok) throw new ConfigError('HARK_TIME_SCALE', result.message);
  return result.scale;
}

// A Lambda's cold start fails on a bad value rather than serving with it.
if (process.env.AWS_LAMBDA_FUNCTION_NAME) config();
