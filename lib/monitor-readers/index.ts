// The monitor readers Hark serves, one per integration type (docs/ingest.md, "Readers"). This list is the source of
// the integration types: add a reader's file and its entry here.
import { awsCloudwatchReader } from './aws_cloudwatch.ts';
import { azureMonitorReader } from './azure_monitor.ts';
import { datadogReader } from './datadog.ts';
import { emailReader } from './email.ts';
import { grafanaReader } from './grafana.ts';
import { heartbeatReader } from './heartbeat.ts';
import { opsgenieReader } from './opsgenie.ts';
import { pagerdutyReader } from './pagerduty.ts';
import { prometheusReader } from './prometheus.ts';
import { sentryReader } from './sentry.ts';
import { stackdriverReader } from './stackdriver.ts';
import type { IntegrationReader } from './types.ts';
import { webhookReader } from './webhook.ts';

export const INTEGRATION_READERS: readonly IntegrationReader[] = [
  webhookReader,
  awsCloudwatchReader,
  prometheusReader,
  grafanaReader,
  datadogReader,
  sentryReader,
  azureMonitorReader,
  stackdriverReader,
  heartbeatReader,
  emailReader,
  pagerdutyReader,
  opsgenieReader,
];

/** The type ids, in the list's order. */
export const INTEGRATION_TYPE_IDS: readonly string[] = INTEGRATION_READERS.map((reader) => reader.id);

/** The reader of a type id; undefined for a type Hark does not serve. */
export function readerOf(id: string): IntegrationReader | undefined {
  return INTEGRATION_READERS.find((reader) => reader.id === id);
}
