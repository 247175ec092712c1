// The local queue poller: a message is deleted only once its handler succeeded (a failed one is received again), and
// its pause: batches in hand finish, nothing more is taken until resume, nothing is lost.
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPoller, type Poller } from '#lib/local/poller.ts';

let sqs: SQSClient;
let queueUrl: string;
let poller: Poller;
const handled: string[] = [];
let slowBatches = 0;

beforeAll(async () => {
  process.env.HARK_SQS_ENDPOINT = inject('sqsEndpoint');
  sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `poller-test-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '5' } }))).QueueUrl!;
  poller = startPoller(queueUrl, {
    name: 'poller-test',
    concurrency: 3,
    invoke: async (event) => {
      // A batch holding "slow" takes 300 ms, so a pause requested meanwhile must wait for it.
      if (event.Records.some((r) => r.body === 'slow')) {
        slowBatches++;
        await new Promise((r) => setTimeout(r, 300));
      }
      handled.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: [] };
    },
  });
});

afterAll(async () => {
  await poller.stop();
  sqs.destroy();
});

const send = (body: string) => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within time');
    await sleep(20);
  }
}

describe('local poller pause and resume', () => {
  it('finishes the batch in hand before the pause resolves, takes nothing while paused, and applies every message after resume', async () => {
    await send('slow');
    await until(() => slowBatches === 1);
    await poller.pause();
    // The slow batch was in hand when the pause was asked for: it is finished, not dropped.
    expect(handled).toContain('slow');

    for (let i = 0; i < 5; i++) await send(`while-paused-${i}`);
    await sleep(600);
    expect(handled.filter((b) => b.startsWith('while-paused'))).toEqual([]);

    poller.resume();
    await until(() => handled.filter((b) => b.startsWith('while-paused')).length === 5);
    expect(new Set(handled.filter((b) => b.startsWith('while-paused')))).toEqual(new Set([0, 1, 2, 3, 4].map((i) => `while-paused-${i}`)));
  });

  it('pauses again after a resume, and a second pause while paused resolves at once', async () => {
    await poller.pause();
    await poller.pause();
    await send('second-pause');
    await sleep(400);
    expect(handled).not.toContain('second-pause');
    poller.resume();
    await until(() => handled.includes('second-pause'));
  });
});

describe('local poller deletes only what was handled', () => {
  it('receives again a message whose handler reported it failed, and a batch whose handler threw', async () => {
    // A queue of its own with a one-second visibility timeout, so a message left undeleted comes back quickly.
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: `poller-retry-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }))).QueueUrl!;
    const attempts: Record<string, number> = {};
    const retrying = startPoller(url, {
      name: 'poller-retry-test',
      batchSize: 1,
      invoke: async (event) => {
        const record = event.Records[0]!;
        const attempt = (attempts[record.body] ?? 0) + 1;
        attempts[record.body] = attempt;
        if (attempt > 1) return { batchItemFailures: [] };
        if (record.body === 'throws-once') throw new Error('handler crashed');
        return { batchItemFailures: record.body === 'fails-once' ? [{ itemIdentifier: record.messageId }] : [] };
      },
    });
    try {
      await Promise.all(['fails-once', 'throws-once', 'succeeds'].map((body) => sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }))));
      // Each failed message is back after the visibility timeout; a few timeouts' grace on a loaded machine.
      await until(() => attempts['fails-once'] === 2 && attempts['throws-once'] === 2, 8000).catch(() => undefined);
      // Then one more visibility timeout: the message that succeeded was deleted and does not come back.
      await sleep(1500);
      expect(attempts, 'attempts per message: a failed one is received again, a handled one is not').toEqual({ 'fails-once': 2, 'throws-once': 2, succeeds: 1 });
    } finally {
      await retrying.stop();
    }
  });
});
