import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { STORAGE_ATTEMPTS } from '../limits.ts';
import { forgetConfigurationOnWrite } from './config-cache.ts';

let cached: { key: string; client: DynamoDBDocumentClient } | undefined;

/** One document client per process (reused across Lambda invocations), rebuilt only if the endpoint changes. */
export function documentClient(): DynamoDBDocumentClient {
  const { region, dynamoEndpoint } = config();
  const key = `${region}|${dynamoEndpoint ?? ''}`;
  if (cached?.key === key) return cached.client;
  // The SDK's standard retry strategy (throttling, 5xx, timeouts and broken connections, with jittered backoff) is the
  // one retry loop for unavailable storage; its attempts are set here rather than left to the SDK's version (lib/db/retry.ts).
  const base = new DynamoDBClient({
    region,
    maxAttempts: STORAGE_ATTEMPTS,
    retryMode: 'standard',
    ...(dynamoEndpoint ? { endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  // Every write of a configuration item forgets the cached configuration reads it may change (docs/decisions/0024-configuration-reads-in-a-storm.md).
  forgetConfigurationOnWrite(client);
  cached = { key, client };
  return client;
}
