// Deployment settings read from CDK context (`cdk.json` "context", or `-c key=value` on the command line).
// Every key is documented in docs/deploy.md; values given on the command line arrive as strings.

import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { VARIABLES } from '../lib/config.ts';
import { API_THROTTLE_BURST, API_THROTTLE_RATE, MAX_BODY_BYTES_SETTING, WEBHOOK_THROTTLE_BURST, WEBHOOK_THROTTLE_RATE } from '../lib/limits.ts';

export interface HarkSettings {
  /** CloudFormation stack name (`hark:stackName`). */
  readonly stackName: string;
  /** Steady-state requests per second for the whole API (`hark:throttleRateLimit`). */
  readonly throttleRateLimit: number;
  /** Burst capacity for the whole API (`hark:throttleBurstLimit`). */
  readonly throttleBurstLimit: number;
  /** Steady-state requests per second of the webhook routes, which take alert storms (`hark:webhookThrottleRateLimit`). */
  readonly webhookThrottleRateLimit: number;
  /** Burst capacity of the webhook routes (`hark:webhookThrottleBurstLimit`). */
  readonly webhookThrottleBurstLimit: number;
  /** Retention of every log group the stack creates (`hark:logRetentionDays`). */
  readonly logRetentionDays: RetentionDays;
  /** Memory of the API and worker Lambdas, in MB (`hark:lambdaMemoryMb`). */
  readonly lambdaMemoryMb: number;
  /** Subscribes this address to the alarm topic (`hark:alarmEmail`); confirm the e-mail SNS sends. */
  readonly alarmEmail: string | undefined;
  /** DynamoDB deletion protection on the table (`hark:tableDeletionProtection`). */
  readonly tableDeletionProtection: boolean;
  /**
   * Write and read units a second the table and each index serve at once (`hark:tableWarmWriteUnits`,
   * `hark:tableWarmReadUnits`): pre-warming for alert storms (docs/capacity.md); unset leaves DynamoDB's own.
   */
  readonly tableWarmWriteUnits: number | undefined;
  readonly tableWarmReadUnits: number | undefined;
  /**
   * Largest accepted request body, passed to the Lambdas as HARK_MAX_BODY_BYTES (`hark:maxBodyBytes`); unset keeps
   * lib/config.ts's default (256 KiB). It can only be lowered: a webhook body is stored in one DynamoDB item (400 KB).
   */
  readonly maxBodyBytes: number | undefined;
  /**
   * Host names and CIDR ranges outgoing webhooks may reach though private, passed to the webhooks Lambda as
   * HARK_WEBHOOK_ALLOWED_HOSTS (`hark:webhookAllowedHosts`, comma-separated); unset allows no private address.
   */
  readonly webhookAllowedHosts: string | undefined;
  /** An address of an SES identity verified in the region (`hark:mailFrom`): email is sent through SES from it. */
  readonly mailFrom: string | undefined;
  /** An End User Messaging phone number or pool ARN (`hark:smsOriginationIdentityArn`): SMS and calls go through it. */
  readonly smsOriginationIdentityArn: string | undefined;
  /**
   * The URL people and providers reach the API at (`hark:publicUrl`), for a custom domain in front of the API; unset
   * uses the HTTP API's own URL. Passed as HARK_PUBLIC_URL to the functions that send or verify messages.
   */
  readonly publicUrl: string | undefined;
  /**
   * The domain email integrations receive mail at (`hark:inboundEmailDomain`): SES receiving stores each message in S3
   * and invokes the email Lambda (docs/monitors.md, "Email"); unset creates none of it.
   */
  readonly inboundEmailDomain: string | undefined;
}

export const DEFAULT_SETTINGS: HarkSettings = {
  stackName: 'HarkStack',
  throttleRateLimit: API_THROTTLE_RATE,
  throttleBurstLimit: API_THROTTLE_BURST,
  webhookThrottleRateLimit: WEBHOOK_THROTTLE_RATE,
  webhookThrottleBurstLimit: WEBHOOK_THROTTLE_BURST,
  logRetentionDays: RetentionDays.ONE_MONTH,
  lambdaMemoryMb: 512,
  alarmEmail: undefined,
  tableDeletionProtection: true,
  tableWarmWriteUnits: undefined,
  tableWarmReadUnits: undefined,
  maxBodyBytes: undefined,
  webhookAllowedHosts: undefined,
  mailFrom: undefined,
  smsOriginationIdentityArn: undefined,
  publicUrl: undefined,
  inboundEmailDomain: undefined,
};

export const CONTEXT_KEYS = {
  stackName: 'hark:stackName',
  throttleRateLimit: 'hark:throttleRateLimit',
  throttleBurstLimit: 'hark:throttleBurstLimit',
  webhookThrottleRateLimit: 'hark:webhookThrottleRateLimit',
  webhookThrottleBurstLimit: 'hark:webhookThrottleBurstLimit',
  logRetentionDays: 'hark:logRetentionDays',
  lambdaMemoryMb: 'hark:lambdaMemoryMb',
  alarmEmail: 'hark:alarmEmail',
  tableDeletionProtection: 'hark:tableDeletionProtection',
  tableWarmWriteUnits: 'hark:tableWarmWriteUnits',
  tableWarmReadUnits: 'hark:tableWarmReadUnits',
  maxBodyBytes: 'hark:maxBodyBytes',
  webhookAllowedHosts: 'hark:webhookAllowedHosts',
  mailFrom: 'hark:mailFrom',
  smsOriginationIdentityArn: 'hark:smsOriginationIdentityArn',
  publicUrl: 'hark:publicUrl',
  inboundEmailDomain: 'hark:inboundEmailDomain',
} as const satisfies Record<keyof HarkSettings, string>;

/** Upper bound of `hark:maxBodyBytes` (docs/limits.md). */
export const MAX_BODY_BYTES_LIMIT = MAX_BODY_BYTES_SETTING;

const RETENTION_VALUES = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'));

function integer(key: string, raw: unknown, min: number, max: number): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Context ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function boolean(key: string, raw: unknown): boolean {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

/** Reads and validates the settings; anything unset keeps its default. */
export function settingsFromContext(node: Node): HarkSettings {
  const get = (key: keyof HarkSettings): unknown => node.tryGetContext(CONTEXT_KEYS[key]);
  const settings = { ...DEFAULT_SETTINGS };

  const stackName = get('stackName');
  if (stackName !== undefined) {
    if (typeof stackName !== 'string' || !/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(stackName)) {
      throw new Error(`Context ${CONTEXT_KEYS.stackName} must be a CloudFormation stack name, got ${JSON.stringify(stackName)}`);
    }
    settings.stackName = stackName;
  }
  const rate = get('throttleRateLimit');
  if (rate !== undefined) settings.throttleRateLimit = integer(CONTEXT_KEYS.throttleRateLimit, rate, 1, 1_000_000);
  const burst = get('throttleBurstLimit');
  if (burst !== undefined) settings.throttleBurstLimit = integer(CONTEXT_KEYS.throttleBurstLimit, burst, 1, 1_000_000);
  const webhookRate = get('webhookThrottleRateLimit');
  if (webhookRate !== undefined) settings.webhookThrottleRateLimit = integer(CONTEXT_KEYS.webhookThrottleRateLimit, webhookRate, 1, 1_000_000);
  const webhookBurst = get('webhookThrottleBurstLimit');
  if (webhookBurst !== undefined) settings.webhookThrottleBurstLimit = integer(CONTEXT_KEYS.webhookThrottleBurstLimit, webhookBurst, 1, 1_000_000);
  const retention = get('logRetentionDays');
  if (retention !== undefined) {
    const days = integer(CONTEXT_KEYS.logRetentionDays, retention, 1, 9999);
    if (!RETENTION_VALUES.has(days)) {
      throw new Error(`Context ${CONTEXT_KEYS.logRetentionDays} must be one of ${[...RETENTION_VALUES].join(', ')} (9999 = never expire), got ${days}`);
    }
    settings.logRetentionDays = days as RetentionDays;
  }
  const memory = get('lambdaMemoryMb');
  if (memory !== undefined) settings.lambdaMemoryMb = integer(CONTEXT_KEYS.lambdaMemoryMb, memory, 128, 10_240);
  const email = get('alarmEmail');
  if (email !== undefined && email !== '') {
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new Error(`Context ${CONTEXT_KEYS.alarmEmail} must be an e-mail address, got ${JSON.stringify(email)}`);
    }
    settings.alarmEmail = email;
  }
  const protection = get('tableDeletionProtection');
  if (protection !== undefined) settings.tableDeletionProtection = boolean(CONTEXT_KEYS.tableDeletionProtection, protection);
  // A new on-demand table serves 4,000 write and 12,000 read units at once; DynamoDB only raises warm throughput.
  const warmWrite = get('tableWarmWriteUnits');
  if (warmWrite !== undefined && warmWrite !== '') settings.tableWarmWriteUnits = integer(CONTEXT_KEYS.tableWarmWriteUnits, warmWrite, 4_000, 10_000_000);
  const warmRead = get('tableWarmReadUnits');
  if (warmRead !== undefined && warmRead !== '') settings.tableWarmReadUnits = integer(CONTEXT_KEYS.tableWarmReadUnits, warmRead, 12_000, 10_000_000);
  const maxBody = get('maxBodyBytes');
  if (maxBody !== undefined) settings.maxBodyBytes = integer(CONTEXT_KEYS.maxBodyBytes, maxBody, 1024, MAX_BODY_BYTES_LIMIT);
  const allowed = get('webhookAllowedHosts');
  if (allowed !== undefined && allowed !== '') {
    // The same check the functions make when they read it (lib/config.ts), so a deploy never ships a value they refuse.
    if (typeof allowed !== 'string' || !VARIABLES.HARK_WEBHOOK_ALLOWED_HOSTS.schema.safeParse(allowed).success) {
      throw new Error(`Context ${CONTEXT_KEYS.webhookAllowedHosts} must be comma-separated host names and CIDR ranges without spaces, got ${JSON.stringify(allowed)}`);
    }
    settings.webhookAllowedHosts = allowed;
  }
  const mailFrom = get('mailFrom');
  if (mailFrom !== undefined && mailFrom !== '') {
    // What the functions accept (lib/config.ts), and a domain with a dot, as an SES identity has.
    if (typeof mailFrom !== 'string' || !VARIABLES.HARK_MAIL_FROM.schema.safeParse(mailFrom).success || !/@[^\s@<>]+\.[^\s@<>]+>?$/.test(mailFrom)) {
      throw new Error(`Context ${CONTEXT_KEYS.mailFrom} must be an e-mail address of a verified SES identity, got ${JSON.stringify(mailFrom)}`);
    }
    settings.mailFrom = mailFrom;
  }
  const smsOrigin = get('smsOriginationIdentityArn');
  if (smsOrigin !== undefined && smsOrigin !== '') {
    if (typeof smsOrigin !== 'string' || !/^arn:aws[a-z-]*:sms-voice:[a-z0-9-]+:\d{12}:(phone-number|pool|sender-id)\/[A-Za-z0-9_-]+$/.test(smsOrigin)) {
      throw new Error(`Context ${CONTEXT_KEYS.smsOriginationIdentityArn} must be an End User Messaging phone number, pool or sender id ARN, got ${JSON.stringify(smsOrigin)}`);
    }
    settings.smsOriginationIdentityArn = smsOrigin;
  }
  const publicUrl = get('publicUrl');
  if (publicUrl !== undefined && publicUrl !== '') {
    if (typeof publicUrl !== 'string' || !/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(publicUrl)) {
      throw new Error(`Context ${CONTEXT_KEYS.publicUrl} must be an https:// URL without query or fragment, got ${JSON.stringify(publicUrl)}`);
    }
    settings.publicUrl = publicUrl;
  }
  const inboundEmailDomain = get('inboundEmailDomain');
  if (inboundEmailDomain !== undefined && inboundEmailDomain !== '') {
    // The same check the functions make of HARK_INBOUND_EMAIL_DOMAIN (lib/config.ts).
    if (typeof inboundEmailDomain !== 'string' || !VARIABLES.HARK_INBOUND_EMAIL_DOMAIN.schema.safeParse(inboundEmailDomain).success || !inboundEmailDomain.includes('.')) {
      throw new Error(`Context ${CONTEXT_KEYS.inboundEmailDomain} must be a domain name such as alerts.example.com, got ${JSON.stringify(inboundEmailDomain)}`);
    }
    settings.inboundEmailDomain = inboundEmailDomain.toLowerCase();
  }
  return settings;
}
