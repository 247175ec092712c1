import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';

let cached: { key: string; client: SQSClient } | undefined;

export function sqsClient(): SQSClient {
  const { region, sqsEndpoint } = config();
  const key = `${region}|${sqsEndpoint ?? ''}`;
  if (cached?.key === key) return cached.client;
  const client = new SQSClient({
    region,
    ...(sqsEndpoint ? { endpoint: sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  cached = { key, client };
  return client;
}
