// The settings schema: every environment variable Hark reads, with what it accepts, its default and its meaning, in
// the order docs/configuration.md lists them (a unit test keeps the two in step). Data; lib/config.ts parses it.
import { z } from 'zod';
import { DEFAULT_MAX_BODY_BYTES, MAX_BODY_BYTES_SETTING, MAX_CONFIG_CACHE_MS } from './limits.ts';
import { MIN_API_KEY_LENGTH, MAX_API_KEY_LENGTH, LOG_LEVELS, TERMINAL_LEVELS, wholeNumber, httpUrl, hostName, emptyIsUnset, type Variable } from './config-values.ts';
import { MESSAGING_VARIABLES } from './config-messaging.ts';

/** The local runtime's, storage's and queues' variables. */
const RUNTIME_VARIABLES = {
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
  HARK_CONFIG_CACHE_MS: {
    schema: wholeNumber(0, MAX_CONFIG_CACHE_MS).default(1000),
    accepts: `a whole number of milliseconds from 0 to ${MAX_CONFIG_CACHE_MS}`,
    default: '1000',
    meaning: 'how long a process answers a create’s configuration reads (teams, policies, schedule events, people…) from memory; 0 turns the cache off (docs/alerts.md)',
  },
} satisfies Record<string, Variable>;

/** AWS's own variables and the stack's secret. */
const AWS_VARIABLES = {
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

/** The variables, in the order the configuration table lists them. */
export const VARIABLES = { ...RUNTIME_VARIABLES, ...MESSAGING_VARIABLES, ...AWS_VARIABLES };

export type VariableName = keyof typeof VARIABLES;
export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

/** The one schema: every variable Hark reads, from raw strings to typed values. */
export const environmentSchema = z.object(
  Object.fromEntries(VARIABLE_NAMES.map((name) => [name, VARIABLES[name].schema])) as { [N in VariableName]: (typeof VARIABLES)[N]['schema'] },
);
export type Environment = z.output<typeof environmentSchema>;
