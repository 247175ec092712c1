import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

let cached: { key: string; client: DynamoDBDocumentClient } | undefined;

/** One document client per process (reused across Lambda invocations), rebuilt only if the endpoint changes. */
export function documentClient(): DynamoDBDocumentClient {
  const { region, dynamoEndpoint } = config();
  const key = `${region}|${dynamoEndpoint ?? ''}`;
  if (cached?.key === key) return cached.client;
  const base = new DynamoDBClient({
    region,
    ...(dynamoEndpoint ? { endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  cached = { key, client };
  return client;
}
