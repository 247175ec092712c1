// Runtime configuration, read from the environment on each call so the local runtime can set it
// before the first request, exactly as Lambda does through its environment variables.
import { parseTimeScale } from './escalation-engine/timers.ts';

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
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
}

export function config(): HarkConfig {
  const env = process.env;
  return {
    tableName: env.HARK_TABLE_NAME ?? 'hark',
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    dynamoEndpoint: env.HARK_DYNAMODB_ENDPOINT || undefined,
    sqsEndpoint: env.HARK_SQS_ENDPOINT || undefined,
    ingestQueueUrl: env.HARK_INGEST_QUEUE_URL || undefined,
    timersQueueUrl: env.HARK_TIMERS_QUEUE_URL || undefined,
    maxBodyBytes: Number(env.HARK_MAX_BODY_BYTES ?? 256 * 1024),
  };
}

/**
 * True on AWS Lambda (the runtime sets AWS_LAMBDA_FUNCTION_NAME) unless the local stand-ins are configured: the
 * local runtime and the tests always point HARK_DYNAMODB_ENDPOINT at DynamoDB Local.
 */
export function isDeployed(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && !env.HARK_DYNAMODB_ENDPOINT;
}

/**
 * HARK_TIME_SCALE: every wait the escalation engine schedules is divided by it (docs/alerts.md, "Faster time,
 * locally"). A whole number from 1 to 3600, default 1; a deployed stack accepts only 1. Throws the refusal.
 */
export function timeScale(env: NodeJS.ProcessEnv = process.env): number {
  const result = parseTimeScale(env.HARK_TIME_SCALE, isDeployed(env));
  if (!result.ok) throw new Error(result.message);
  return result.scale;
}
