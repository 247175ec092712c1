// Every environment variable Hark reads, parsed by one zod schema (docs/configuration.md). A bad value
// stops the process that reads it: `npm start` before it starts anything, a Lambda at its cold start,
// each with one line naming the variable and what it accepts.
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseTimeScale } from './escalation-engine/timers.ts';
import { DEFAULT_MAX_BODY_BYTES, MAX_BODY_BYTES_SETTING } from './limits.ts';

/** Shortest HARK_API_KEY accepted: as hard to guess as a generated key. */
export const MIN_API_KEY_LENGTH = 32;
const MAX_API_KEY_LENGTH = 512;

/** Who sends SMS and places calls (docs/notifications.md, "SMS and voice"). */
export const SMS_PROVIDERS = ['twilio', 'end-user-messaging'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
/** How much `npm start` prints (HARK_LOG_LEVEL), most first (docs/configuration.md, "What npm start prints"). */
export const TERMINAL_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type TerminalLevel = (typeof TERMINAL_LEVELS)[number];

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const httpUrl = z.url({ protocol: /^https?$/ });
export const EMAIL_PROVIDERS = ['smtp', 'ses'] as const;
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];
/** An address, or `Name <address>`: what a From header holds. */
const mailbox = z.string().regex(/^(?:[^<>\r\n]{1,100} <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/);
/** Shortest HARK_LINK_SECRET accepted: 256 bits of a base64 key. */
export const MIN_LINK_SECRET_LENGTH = 32;
const linkSecret = z
  .string()
  .min(MIN_LINK_SECRET_LENGTH)
  .max(MAX_API_KEY_LENGTH)
  .regex(/^[\x21-\x7e]+$/);
const hostName = z.string().refine((value) => isIP(value) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(value));
/** AWS's own variables: an empty value means unset, as the AWS SDK and Powertools read them. */
const emptyIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

interface Variable {
  schema: z.ZodType;
  /** Completes "<NAME> must be …" in the one-line error. */
  accepts: string;
  /** Shown in the configuration table (README, docs/configuration.md). */
  default: string;
  meaning: string;
  /** Never echoed back: the error says how long the value was instead. */
  secret?: boolean;
}

/** The variables, in the order the configuration table lists them. */
export const VARIABLES = {
  PORT: {
    schema: wholeNumber(1, 65535).default(3000),
    accepts: 'a TCP port number from 1 to 65535',
    default: '3000',
    meaning: '`npm start`: the port of the local gateway',
  },
  HOST: {
    schema: hostName.default('127.0.0.1'),
    accepts: 'an IP address or host name to listen on, such as 127.0.0.1 or 0.0.0.0',
    default: '127.0.0.1',
    meaning: '`npm start`: the address the local gateway listens on',
  },
  HARK_DATA_DIR: {
    schema: z.string().min(1).default('.data'),
    accepts: 'a folder path',
    default: '`.data`',
    meaning: '`npm start` and `npm run admin`: the local data folder (DynamoDB Local files, queues, lock, admin key)',
  },
  HARK_API_KEY: {
    schema: z
      .string()
      .min(MIN_API_KEY_LENGTH)
      .max(MAX_API_KEY_LENGTH)
      .regex(/^[\x21-\x7e]+$/)
      .optional(),
    accepts: `${MIN_API_KEY_LENGTH} to ${MAX_API_KEY_LENGTH} printable characters without spaces`,
    default: 'generated',
    meaning: "`npm start`: the one bootstrap admin key of the local account; changing it replaces the old key",
    secret: true,
  },
  HARK_LOG_LEVEL: {
    schema: z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.enum(TERMINAL_LEVELS))
      .default('info'),
    accepts: `one of ${TERMINAL_LEVELS.join(', ')} (any case)`,
    default: '`info`',
    meaning: '`npm start`: how much it prints, one line per event: `info` every event, `warn` only problems (messages that failed, dropped alerts, failing outgoing webhooks, errors), `error` only errors, `silent` nothing; `debug` adds internal records',
  },
  HARK_MAX_BODY_BYTES: {
    schema: wholeNumber(1, MAX_BODY_BYTES_SETTING).default(DEFAULT_MAX_BODY_BYTES),
    accepts: `a whole number of bytes from 1 to ${MAX_BODY_BYTES_SETTING}`,
    default: String(DEFAULT_MAX_BODY_BYTES),
    meaning: 'largest accepted request body (413 above it)',
  },
  HARK_TABLE_NAME: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{3,255}$/)
      .default('hark'),
    accepts: "a DynamoDB table name (3 to 255 letters, digits, '_', '-' or '.')",
    default: '`hark`',
    meaning: 'the DynamoDB table (set by the CDK stack on AWS and by `npm start` locally)',
  },
  HARK_DYNAMODB_ENDPOINT: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset (AWS)',
    meaning: 'DynamoDB endpoint; set by `npm start` to its DynamoDB Local',
  },
  HARK_SQS_ENDPOINT: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset (AWS)',
    meaning: 'SQS endpoint; set by `npm start` to its SQS emulator',
  },
  HARK_INGEST_QUEUE_URL: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset',
    meaning: 'the FIFO ingest queue the webhook sends to (set by the CDK stack and by `npm start`)',
  },
  HARK_TIMERS_QUEUE_URL: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset',
    meaning: 'the standard queue of timer wake-ups (set by the CDK stack and by `npm start`)',
  },
  HARK_WEBHOOKS_QUEUE_URL: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset',
    meaning: 'the standard queue of outgoing webhook work (set by the CDK stack and by `npm start`)',
  },
  HARK_WEBHOOK_ALLOWED_HOSTS: {
    schema: emptyIsUnset(z.string().regex(/^[^\s,]+(,[^\s,]+)*$/)),
    accepts: 'a comma-separated list of host names and IP ranges in CIDR notation, without spaces',
    default: 'unset (no private address is reachable)',
    meaning: 'outgoing webhooks may reach these hosts and ranges even when they resolve to private, loopback or link-local addresses',
  },
  HARK_TIME_SCALE: {
    // Checked by parseTimeScale (docs/alerts.md), whose refusal names the variable itself.
    schema: z.string().optional(),
    accepts: 'a whole number from 1 to 3600 (only 1 in a deployed stack)',
    default: '1',
    meaning: 'every wait the escalation engine schedules is divided by it (local runtime and tests only)',
  },
  HARK_SMS_PROVIDER: {
    schema: z.enum(SMS_PROVIDERS).optional(),
    accepts: `one of ${SMS_PROVIDERS.join(', ')}`,
    default: 'unset (SMS and voice suppressed)',
    meaning: 'who sends SMS and places voice calls (docs/notifications.md, "SMS and voice")',
  },
  HARK_TWILIO_ACCOUNT_SID: {
    schema: z.string().regex(/^AC[0-9a-fA-F]{32}$/).optional(),
    accepts: 'a Twilio account SID (AC followed by 32 hexadecimal digits)',
    default: 'unset',
    meaning: 'Twilio: the account that sends SMS, calls and WhatsApp messages',
  },
  HARK_TWILIO_AUTH_TOKEN: {
    schema: z.string().regex(/^[\x21-\x7e]{16,128}$/).optional(),
    accepts: '16 to 128 printable characters without spaces',
    default: 'unset',
    meaning: "Twilio: the account's auth token (API requests and the signature of inbound requests)",
    secret: true,
  },
  HARK_TWILIO_FROM: {
    schema: z.string().regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/).optional(),
    accepts: 'an E.164 phone number (+14155550100) or a messaging service SID (MG…)',
    default: 'unset',
    meaning: 'Twilio: the number (or messaging service) SMS come from; calls need a number',
  },
  HARK_TWILIO_API_URL: {
    schema: httpUrl.default('https://api.twilio.com'),
    accepts: 'an http:// or https:// URL',
    default: '`https://api.twilio.com`',
    meaning: "Twilio: the REST API's base URL (tests point it at a local stand-in)",
  },
  HARK_TWILIO_WHATSAPP_FROM: {
    schema: z.string().regex(/^\+[1-9]\d{6,14}$/).optional(),
    accepts: 'an E.164 phone number such as +14155238886',
    default: 'unset (WhatsApp suppressed)',
    meaning: 'Twilio: the WhatsApp sender number',
  },
  HARK_TWILIO_WHATSAPP_CONTENT_SID: {
    schema: z.string().regex(/^HX[0-9a-fA-F]{32}$/).optional(),
    accepts: 'a Twilio content template SID (HX followed by 32 hexadecimal digits)',
    default: 'unset (WhatsApp suppressed)',
    meaning: 'Twilio: the approved WhatsApp template pages use ({{1}} the alert, {{2}} its summary)',
  },
  HARK_SMS_ORIGINATION_IDENTITY: {
    schema: z.string().regex(/^[\x21-\x7e]{1,256}$/).optional(),
    accepts: 'an End User Messaging origination identity: a phone number, sender id, pool id or their ARN',
    default: 'unset',
    meaning: 'AWS End User Messaging: the origination identity SMS and voice messages are sent with',
  },
  HARK_SMS_CONFIGURATION_SET: {
    schema: z.string().regex(/^[A-Za-z0-9_:/-]{1,256}$/).optional(),
    accepts: "an End User Messaging configuration set name or ARN (letters, digits, '_', '-', ':', '/')",
    default: 'unset',
    meaning: 'AWS End User Messaging: the configuration set (event destinations, protect configuration)',
  },
  HARK_END_USER_MESSAGING_ENDPOINT: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: 'unset (AWS)',
    meaning: "AWS End User Messaging: the API endpoint (tests point it at a local stand-in)",
  },
  HARK_PUBLIC_URL: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL',
    default: "the local gateway's URL",
    meaning: 'the base of the signed action links in messages (docs/notifications.md)',
  },
  HARK_LINK_SECRET: {
    schema: linkSecret.optional(),
    accepts: `${MIN_LINK_SECRET_LENGTH} to ${MAX_API_KEY_LENGTH} printable characters without spaces`,
    default: 'generated (`npm start`)',
    meaning: 'the key that signs action links; on AWS from Secrets Manager (docs/notifications.md)',
    secret: true,
  },
  HARK_LINK_SECRET_PREVIOUS: {
    schema: linkSecret.optional(),
    accepts: `${MIN_LINK_SECRET_LENGTH} to ${MAX_API_KEY_LENGTH} printable characters without spaces`,
    default: 'unset',
    meaning: 'the link key before a rotation: links it signed keep working until they expire',
    secret: true,
  },
  HARK_EMAIL_PROVIDER: {
    schema: z.enum(EMAIL_PROVIDERS).optional(),
    accepts: `one of ${EMAIL_PROVIDERS.join(', ')}`,
    default: '`smtp` when HARK_SMTP_URL is set, else none',
    meaning: 'who sends email: an SMTP server, or Amazon SES (v2 API) on AWS (docs/notifications.md)',
  },
  HARK_SMTP_URL: {
    schema: z.url({ protocol: /^smtps?$/ }).optional(),
    accepts: 'an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587',
    default: 'unset',
    meaning: 'the SMTP server email goes through (credentials in the URL)',
    secret: true,
  },
  HARK_MAIL_FROM: {
    schema: mailbox.default('Hark <hark@localhost>'),
    accepts: 'an email address, optionally with a name: Hark <alerts@example.com>',
    default: '`Hark <hark@localhost>`',
    meaning: 'the From of every email (with SES: an address of a verified identity)',
  },
  HARK_SNS_CERT_DIR: {
    schema: z.string().min(1).optional(),
    accepts: 'a folder path',
    default: 'unset (certificates are fetched from Amazon SNS)',
    meaning: 'Amazon SNS signing certificates are read from this folder (the PEM named by the last segment of SigningCertURL) and never fetched: offline and in tests (docs/monitors.md)',
  },
  HARK_INBOUND_EMAIL_DOMAIN: {
    schema: hostName.optional(),
    accepts: 'a domain name such as alerts.example.com',
    default: 'unset (email integrations have no address)',
    meaning: 'the domain of email integrations\' addresses, <prefix_id>@<domain> (docs/monitors.md)',
  },
  HARK_SMTP_INBOUND_PORT: {
    schema: wholeNumber(1, 65535).optional(),
    accepts: 'a TCP port number from 1 to 65535',
    default: 'unset (off)',
    meaning: '`npm start` only: the loopback port of the SMTP listener that feeds email integrations (docs/monitors.md)',
  },
  HARK_NTFY_URL: {
    schema: httpUrl.optional(),
    accepts: 'an http:// or https:// URL such as https://ntfy.sh',
    default: 'unset',
    meaning: 'the ntfy server push notifications are published to; unset → no push (docs/notifications.md)',
  },
  HARK_NTFY_TOKEN: {
    schema: z.string().regex(/^[\x21-\x7e]{1,512}$/).optional(),
    accepts: 'an ntfy access token (1 to 512 printable characters without spaces)',
    default: 'unset',
    meaning: 'the access token Hark publishes with (sent as a Bearer token), when the server requires one',
    secret: true,
  },
  HARK_NTFY_TOPIC_KEY: {
    schema: linkSecret.optional(),
    accepts: `${MIN_LINK_SECRET_LENGTH} to ${MAX_API_KEY_LENGTH} printable characters without spaces`,
    default: '`HARK_LINK_SECRET`',
    meaning: "the key each person's secret push topic is derived with",
    secret: true,
  },
  HARK_SLACK_BOT_TOKEN: {
    schema: z.string().regex(/^xoxb-[\x21-\x7e]{1,500}$/).optional(),
    accepts: 'a Slack bot token (xoxb-…)',
    default: 'unset',
    meaning: 'the Slack app bot token messages are posted with; unset → no Slack (docs/notifications.md)',
    secret: true,
  },
  HARK_SLACK_SIGNING_SECRET: {
    schema: z.string().regex(/^[\x21-\x7e]{16,256}$/).optional(),
    accepts: "the Slack app's signing secret (16 to 256 printable characters)",
    default: 'unset',
    meaning: "checks that button clicks come from Slack (X-Slack-Signature)",
    secret: true,
  },
  HARK_SLACK_API_URL: {
    schema: httpUrl.default('https://slack.com/api'),
    accepts: 'an http:// or https:// URL',
    default: '`https://slack.com/api`',
    meaning: "the Slack Web API's base (tests point it at a stand-in)",
  },
  HARK_SECRETS_ARN: {
    schema: z
      .string()
      .regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/)
      .optional(),
    accepts: 'the ARN of a Secrets Manager secret',
    default: 'unset (set by the CDK stack)',
    meaning: 'AWS: the secret holding provider credentials and the link key as a JSON object of these variables (docs/notifications.md)',
  },
  AWS_REGION: {
    schema: emptyIsUnset(z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/)),
    accepts: 'an AWS region name such as eu-west-1',
    default: '`AWS_DEFAULT_REGION`, else us-east-1',
    meaning: 'AWS region (set by Lambda)',
  },
  AWS_DEFAULT_REGION: {
    schema: emptyIsUnset(z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/)),
    accepts: 'an AWS region name such as eu-west-1',
    default: 'unset',
    meaning: 'AWS region when `AWS_REGION` is unset',
  },
  POWERTOOLS_LOG_LEVEL: {
    schema: emptyIsUnset(z.string().transform((value) => value.toUpperCase()).pipe(z.enum(LOG_LEVELS))),
    accepts: `one of ${LOG_LEVELS.join(', ')} (any case)`,
    default: 'INFO',
    meaning: 'log level of the JSON logs',
  },
  POWERTOOLS_SERVICE_NAME: {
    schema: emptyIsUnset(z.string()).transform((value) => value ?? 'hark'),
    accepts: 'a service name',
    default: '`hark`',
    meaning: 'the `service` field of every log line',
  },
  AWS_LAMBDA_FUNCTION_NAME: {
    schema: emptyIsUnset(z.string()),
    accepts: 'a Lambda function name',
    default: 'set by Lambda',
    meaning: 'present only inside Lambda: the environment is then read once per cold start',
  },
} satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;
export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

/** The one schema: every variable Hark reads, from raw strings to typed values. */
export const environmentSchema = z.object(
  Object.fromEntries(VARIABLE_NAMES.map((name) => [name, VARIABLES[name].schema])) as { [N in VariableName]: (typeof VARIABLES)[N]['schema'] },
);
export type Environment = z.output<typeof environmentSchema>;

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
  logLevel: string;
  serviceName: string;
  /** Set only inside Lambda. */
  lambdaFunctionName: string | undefined;
  /** AWS: the Secrets Manager secret of provider credentials (lib/notify/secrets.ts). */
  secretsArn: string | undefined;
  /** SMS, voice and WhatsApp providers (docs/notifications.md, "SMS and voice", "WhatsApp"). */
  phone: PhoneConfig;
  /** Signed action links in messages (docs/notifications.md, "Signed links"). */
  links: { publicUrl: string | undefined; secret: string | undefined; previousSecret: string | undefined };
  /** Email delivery (docs/notifications.md, "Email"): no provider → email is not configured. */
  email: { provider: EmailProvider | undefined; smtpUrl: string | undefined; from: string };
  /** Push through ntfy (docs/notifications.md, "Push"): no URL → push is not configured. */
  ntfy: { url: string | undefined; token: string | undefined; topicKey: string | undefined };
  /** Slack (docs/notifications.md, "Slack"): no bot token → Slack is not configured. */
  slack: { botToken: string | undefined; signingSecret: string | undefined; apiUrl: string };
  /** Monitors that are not plain webhooks (docs/monitors.md): SNS certificates offline, the email integrations' domain and local SMTP port. */
  inbound: { snsCertDir: string | undefined; emailDomain: string | undefined; smtpPort: number | undefined };
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
    email: { provider: e.HARK_EMAIL_PROVIDER ?? (e.HARK_SMTP_URL ? 'smtp' : undefined), smtpUrl: e.HARK_SMTP_URL, from: e.HARK_MAIL_FROM },
    ntfy: { url: e.HARK_NTFY_URL, token: e.HARK_NTFY_TOKEN, topicKey: e.HARK_NTFY_TOPIC_KEY ?? e.HARK_LINK_SECRET },
    slack: { botToken: e.HARK_SLACK_BOT_TOKEN, signingSecret: e.HARK_SLACK_SIGNING_SECRET, apiUrl: e.HARK_SLACK_API_URL.replace(/\/+$/, '') },
    inbound: { snsCertDir: e.HARK_SNS_CERT_DIR, emailDomain: e.HARK_INBOUND_EMAIL_DOMAIN?.toLowerCase(), smtpPort: e.HARK_SMTP_INBOUND_PORT },
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
