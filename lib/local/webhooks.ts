// The outgoing webhooks side of the local runtime: the webhooks queue fed to functions/webhooks.ts as Lambda's
// event source does. Several pollers, as Lambda runs several invocations: a batch held by a slow receiver does not
// hold the next batch (docs/outgoing-webhooks.md, "How a delivery runs").
import { loadHandler } from './gateway.ts';
import { startPoller, type Poller, type SqsHandler } from './poller.ts';

export const LOCAL_WEBHOOK_POLLERS = 4;

export function startWebhooksPollers(queueUrl: string, count = LOCAL_WEBHOOK_POLLERS): Poller[] {
  return Array.from({ length: count }, () => startPoller(queueUrl, { name: 'webhooks', load: async () => (await loadHandler('webhooks')) as unknown as SqsHandler }));
}
