// Durable timers on the real local parts: DynamoDB Local and the SQS emulator of the test stack, with the
// production wake-up handler (functions/timers.ts) fed by the local poller and owner handlers defined here.
// The timers live in a table and a queue of their own, so the stack's own sweeper and poller never see them.
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { timerFunctions } from '#functions/timers.ts';
import { nowMs } from '#lib/clock.ts';
import { getItem, queryPrefix, transact } from '#lib/db/items.ts';
import { putNew } from '#lib/db/writes.ts';
import { newId } from '#lib/ids.ts';
import { ensureTable } from '#lib/local/dynamo.ts';
import { lambdaContext } from '#lib/local/invoker.ts';
import { startPoller, type Poller } from '#lib/local/poller.ts';
import { sendWakeUpMessages } from '#lib/queue/timers.ts';
import { processWakeUp } from '#lib/timers/consumer.ts';
import { fireStoredTimer } from '#lib/timers/fire.ts';
import { timerFiredItem, timerKey, timerOwnerPk, timerPutItems, sendWakeUps, type DurableTimer, type TimerItem } from '#lib/timers/index.ts';
import { sweepTimers } from '#lib/timers/sweeper.ts';
import { wakeUpFor, wakeUpMessageOf } from '#lib/timers/wake-ups.ts';

const accountId = `acct-${newId()}`;
/** Owner ids whose handler fails this many more times. */
const failuresLeft = new Map<string, number>();
const calls: { timerId: string; now: Date }[] = [];

/** The owner's firing: one transaction of its own record and the fired marker, as alerts do. */
async function fireForTest(timer: DurableTimer, now: Date): Promise<void> {
  calls.push({ timerId: timer.timerId, now });
  const left = failuresLeft.get(timer.ownerId) ?? 0;
  if (left > 0) {
    failuresLeft.set(timer.ownerId, left - 1);
    throw new Error('owner handler failed on purpose');
  }
  const pk = timerOwnerPk(timer);
  await transact([putNew({ pk, sk: `FIRED#${timer.timerId}#${newId()}`, firedAt: now.toISOString() }), timerFiredItem(pk, timer, now)]);
}
const handlers = { alert: fireForTest };

let poller: Poller | undefined;
let sqs: SQSClient;
let queueUrl: string;

async function createQueue(name: string): Promise<string> {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '1' } }));
  return created.QueueUrl!;
}

beforeAll(async () => {
  const tableName = `timers-${process.pid}-${Date.now()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  Object.assign(process.env, { HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), HARK_TABLE_NAME: tableName, HARK_SQS_ENDPOINT: inject('sqsEndpoint') });
  sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  queueUrl = await createQueue(`timers-test-${process.pid}-${Date.now()}`);
  process.env.HARK_TIMERS_QUEUE_URL = queueUrl;
  const { handler } = timerFunctions(handlers);
  poller = startPoller(queueUrl, { name: 'timers', invoke: (event) => handler(event, lambdaContext('timers')) });
});

afterAll(async () => {
  await poller?.stop();
  sqs?.destroy();
});

function newTimer(dueInMs: number, overrides: Partial<DurableTimer> = {}): DurableTimer {
  return {
    accountId,
    ownerType: 'alert',
    ownerId: newId(),
    timerId: newId(),
    kind: 'layer_timeout',
    dueAt: new Date(nowMs() + dueInMs).toISOString(),
    epoch: 1,
    payload: { escalation: 0, layer: 1, pass: 1 },
    ...overrides,
  };
}

async function store(timer: DurableTimer): Promise<void> {
  await transact(timerPutItems(timerOwnerPk(timer), [timer]));
}

const firedRecords = (timer: DurableTimer) => queryPrefix<{ firedAt: string }>(timerOwnerPk(timer), `FIRED#${timer.timerId}#`);
const stored = (timer: DurableTimer) => getItem<TimerItem>(timerKey(timer));
const callsOf = (timer: DurableTimer) => calls.filter((c) => c.timerId === timer.timerId);

describe('durable timers', { timeout: 60_000 }, () => {
  it('fires a timer once, at or after its due time, through its wake-up message', async () => {
    const timer = newTimer(1500);
    await store(timer);
    await sendWakeUps([timer]);
    await vi.waitFor(async () => expect(await firedRecords(timer)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const [record] = await firedRecords(timer);
    expect(Date.parse(record!.firedAt)).toBeGreaterThanOrEqual(Date.parse(timer.dueAt));
    const item = await stored(timer);
    expect(item).toMatchObject({ state: 'fired', epoch: 1, kind: 'layer_timeout' });
    expect(item?.gsi3pk).toBeUndefined();
    expect(item?.gsi3sk).toBeUndefined();
    expect(callsOf(timer)).toHaveLength(1);
  });

  it('commits the owner’s write once when the same wake-up arrives twice, even at the same moment', async () => {
    const queued = newTimer(0);
    await store(queued);
    await sendWakeUps([queued, queued]);
    await vi.waitFor(async () => expect(await firedRecords(queued)).toHaveLength(1), { timeout: 20_000, interval: 100 });

    const raced = newTimer(-1);
    await store(raced);
    const body = JSON.stringify(wakeUpMessageOf(raced));
    const outcomes = await Promise.all([processWakeUp(body, handlers), processWakeUp(body, handlers), processWakeUp(body, handlers)]);
    expect(outcomes.filter((o) => o === 'fired')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(2);
    expect(await firedRecords(raced)).toHaveLength(1);
    // A later duplicate finds the timer fired and does not call the owner at all.
    const before = callsOf(raced).length;
    expect(await processWakeUp(body, handlers)).toBe('done');
    expect(callsOf(raced)).toHaveLength(before);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await firedRecords(queued)).toHaveLength(1);
  });

  it('sends an early wake-up again instead of firing, and fires when due', async () => {
    const timer = newTimer(2500);
    await store(timer);
    expect(await processWakeUp(JSON.stringify(wakeUpMessageOf(timer)), handlers)).toBe('early');
    expect(callsOf(timer)).toHaveLength(0);
    expect(await stored(timer)).toMatchObject({ state: 'pending' });
    // Only the re-sent message is on the queue: it fires the timer.
    await vi.waitFor(async () => expect(await firedRecords(timer)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(callsOf(timer).every((c) => c.now.getTime() >= Date.parse(timer.dueAt))).toBe(true);
  });

  it('fires a timer whose wake-up was lost through the sweeper, once it is past the grace', async () => {
    const lost = newTimer(-6000);
    const recent = newTimer(-1000);
    const later = newTimer(60_000);
    for (const t of [lost, recent, later]) await store(t);
    const result = await sweepTimers(handlers);
    expect(result.fired).toBeGreaterThanOrEqual(1);
    expect(await firedRecords(lost)).toHaveLength(1);
    expect(await stored(recent)).toMatchObject({ state: 'pending' });
    expect(await stored(later)).toMatchObject({ state: 'pending' });
    expect(callsOf(recent)).toHaveLength(0);
    // The next sweep does not fire it again.
    await sweepTimers(handlers);
    expect(await firedRecords(lost)).toHaveLength(1);
    expect(callsOf(lost)).toHaveLength(1);
  });

  it('leaves a timer pending when its owner’s handler fails, and retries it', async () => {
    const direct = newTimer(-10_000);
    failuresLeft.set(direct.ownerId, 1);
    await store(direct);
    await expect(processWakeUp(JSON.stringify(wakeUpMessageOf(direct)), handlers)).rejects.toThrow('owner handler failed on purpose');
    expect(await stored(direct)).toMatchObject({ state: 'pending' });
    const swept = await sweepTimers(handlers);
    expect(swept.fired).toBeGreaterThanOrEqual(1);
    expect(await firedRecords(direct)).toHaveLength(1);

    // Through the queue: the failed message is reported in batchItemFailures and delivered again.
    const queued = newTimer(0);
    failuresLeft.set(queued.ownerId, 2);
    await store(queued);
    await sendWakeUps([queued]);
    await vi.waitFor(async () => expect(await firedRecords(queued)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(callsOf(queued)).toHaveLength(3);
  });

  it('wakes a wait longer than 900 s every 900 s, firing only when due', async () => {
    const timer = newTimer(1_000_000);
    const start = Date.parse(timer.dueAt) - 1_000_000;
    await store(timer);
    expect(wakeUpFor(timer, start).delaySeconds).toBe(900);
    const first = await fireStoredTimer(timerKey(timer), handlers, start);
    expect(first).toMatchObject({ result: 'early', delaySeconds: 900 });
    const second = await fireStoredTimer(timerKey(timer), handlers, start + 900_000);
    expect(second).toMatchObject({ result: 'early', delaySeconds: 100 });
    expect(await fireStoredTimer(timerKey(timer), handlers, start + 1_000_000)).toEqual({ result: 'fired' });
    expect(await firedRecords(timer)).toHaveLength(1);

    // The re-sent message really waits on the queue with the clamped delay (a queue no poller reads).
    const quiet = await createQueue(`timers-quiet-${process.pid}-${Date.now()}`);
    process.env.HARK_TIMERS_QUEUE_URL = quiet;
    try {
      const long = newTimer(5_000_000);
      await store(long);
      await sendWakeUpMessages([{ message: wakeUpMessageOf(long), delaySeconds: 0 }]);
      await sendWakeUps([long]);
      expect(await processWakeUp(JSON.stringify(wakeUpMessageOf(long)), handlers)).toBe('early');
      const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: quiet, AttributeNames: ['ApproximateNumberOfMessagesDelayed', 'ApproximateNumberOfMessages'] }));
      expect(attributes.Attributes).toMatchObject({ ApproximateNumberOfMessagesDelayed: '2', ApproximateNumberOfMessages: '1' });
    } finally {
      process.env.HARK_TIMERS_QUEUE_URL = queueUrl;
    }
  });
});
