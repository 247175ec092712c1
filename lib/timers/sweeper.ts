// The sweeper: fires every pending timer whose wake-up is clearly late (lost, or still in flight past the grace),
// shard by shard, one index page at a time. A lost message therefore delays a firing by at most one sweep.

import { nowMs } from '../clock.ts';
import { queryPages } from '../db/items.ts';
import { isUnavailable } from '../db/retry.ts';
import { SWEEP_GRACE_MS } from '../escalation-engine/timers.ts';
import { logger } from '../logger.ts';
import { fireStoredTimer } from './fire.ts';
import { TIMER_SHARDS, timerShardPk, type TimerItem } from './items.ts';
import type { TimerHandlers } from './types.ts';

export interface SweepOptions {
  now?: number;
  graceMs?: number;
  /** Index items read per Query page. */
  pageSize?: number;
  /** Stop starting new firings after this instant (the Lambda's remaining time); the next sweep goes on. */
  deadline?: number;
}

export interface SweepResult {
  /** Overdue index entries read. */
  found: number;
  fired: number;
  failed: number;
  /** Shards whose index could not be read to the end (storage unavailable): the next sweep reads them again. */
  unread: number;
}

/** The exclusive upper bound of gsi3sk for timers due more than `graceMs` before `now`. */
export const sweepCutoff = (now: number, graceMs: number): string => new Date(now - graceMs).toISOString();

/** Storage failing under load is expected now and then (a warning); anything else is a fault to look at. */
const logFailure = (message: string, error: unknown, fields: Record<string, unknown>) =>
  (isUnavailable(error) ? logger.warn : logger.error).call(logger, message, { ...fields, error: error as Error });

/** One shard, page by page; a page that cannot be read (storage unavailable) ends the shard's sweep, logged, never thrown. */
async function sweepShard(shard: number, handlers: Partial<TimerHandlers>, options: Required<Omit<SweepOptions, 'deadline'>> & SweepOptions): Promise<SweepResult> {
  const result: SweepResult = { found: 0, fired: 0, failed: 0, unread: 0 };
  try {
    await sweepPages(shard, handlers, options, result);
  } catch (error) {
    result.unread = 1;
    logFailure('Sweeper could not read a timer shard; the next sweep reads it again', error, { shard });
  }
  return result;
}

async function sweepPages(shard: number, handlers: Partial<TimerHandlers>, options: Required<Omit<SweepOptions, 'deadline'>> & SweepOptions, result: SweepResult): Promise<void> {
  const pages = queryPages<Pick<TimerItem, 'pk' | 'sk' | 'timerId'>>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk < :cutoff',
    ExpressionAttributeValues: { ':shard': timerShardPk(shard), ':cutoff': sweepCutoff(options.now, options.graceMs) },
    Limit: options.pageSize,
  });
  for await (const page of pages) {
    for (const entry of page) {
      if (options.deadline !== undefined && nowMs() > options.deadline) return;
      result.found += 1;
      try {
        const outcome = await fireStoredTimer({ pk: entry.pk, sk: entry.sk }, handlers, nowMs());
        if (outcome.result === 'fired') {
          result.fired += 1;
          logger.info('Sweeper fired an overdue timer', { timerId: entry.timerId, pk: entry.pk });
        }
      } catch (error) {
        result.failed += 1;
        logFailure('Sweeper could not fire a timer; the next sweep tries again', error, { timerId: entry.timerId, pk: entry.pk });
      }
    }
  }
}

/** One sweep over every shard (in parallel); failures are logged and left pending for the next sweep, so it never throws for them. */
export async function sweepTimers(handlers: Partial<TimerHandlers>, options: SweepOptions = {}): Promise<SweepResult> {
  const settings = { now: options.now ?? nowMs(), graceMs: options.graceMs ?? SWEEP_GRACE_MS, pageSize: options.pageSize ?? 100, ...(options.deadline !== undefined ? { deadline: options.deadline } : {}) };
  const shards = Array.from({ length: TIMER_SHARDS }, (_, shard) => shard);
  const results = await Promise.all(shards.map((shard) => sweepShard(shard, handlers, settings)));
  return results.reduce(
    (a, b) => ({ found: a.found + b.found, fired: a.fired + b.fired, failed: a.failed + b.failed, unread: a.unread + b.unread }),
    { found: 0, fired: 0, failed: 0, unread: 0 },
  );
}
