// The outgoing webhooks side of the local runtime: the webhooks queue fed to functions/webhooks.ts as Lambda's
// event source does, with several receive loops: a batch held by a slow receiver does not hold the next batch
// (docs/outgoing-webhooks.md, "How a delivery runs").
import { loadHandler } from './gateway.ts';
import { LOCAL_RECEIVE_LOOPS, startPoller, type Poller, type SqsHandler } from './poller.ts';

export const startWebhooksPoller = (queueUrl: string): Poller =>
  startPoller(queueUrl, { name: 'webhooks', concurrency: LOCAL_RECEIVE_LOOPS, load: async () => (await loadHandler('webhooks')) as unknown as SqsHandler });
