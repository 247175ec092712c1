// The sweeper: fires every pending timer whose wake-up is clearly late (lost, or still in flight past the grace),
// shard by shard, one index page at a time. A lost message therefore delays a firing by at most one sweep.

import { nowMs } from '../clock.ts';
import { queryPages } from '../db/items.ts';
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
}

/** The exclusive upper bound of gsi3sk for timers due more than `graceMs` before `now`. */
export const sweepCutoff = (now: number, graceMs: number): string => new Date(now - graceMs).toISOString();

async function sweepShard(shard: number, handlers: Partial<TimerHandlers>, options: Required<Omit<SweepOptions, 'deadline'>> & SweepOptions): Promise<SweepResult> {
  const result: SweepResult = { found: 0, fired: 0, failed: 0 };
  const pages = queryPages<Pick<TimerItem, 'pk' | 'sk' | 'timerId'>>({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk < :cutoff',
    ExpressionAttributeValues: { ':shard': timerShardPk(shard), ':cutoff': sweepCutoff(options.now, options.graceMs) },
    Limit: options.pageSize,
  });
  for await (const page of pages) {
    for (const entry of page) {
      if (options.deadline !== undefined && nowMs() > options.deadline) return result;
      result.found += 1;
      try {
        const outcome = await fireStoredTimer({ pk: entry.pk, sk: entry.sk }, handlers, nowMs());
        if (outcome.result === 'fired') {
          result.fired += 1;
          logger.info('Sweeper fired an overdue timer', { timerId: entry.timerId, pk: entry.pk });
        }
      } catch (error) {
        result.failed += 1;
        logger.error('Sweeper could not fire a timer; the next sweep tries again', { timerId: entry.timerId, pk: entry.pk, error: error as Error });
      }
    }
  }
  return result;
}

/** One sweep over every shard (in parallel); failures are logged and left pending for the next sweep. */
export async function sweepTimers(handlers: Partial<TimerHandlers>, options: SweepOptions = {}): Promise<SweepResult> {
  const settings = { now: options.now ?? nowMs(), graceMs: options.graceMs ?? SWEEP_GRACE_MS, pageSize: options.pageSize ?? 100, ...(options.deadline !== undefined ? { deadline: options.deadline } : {}) };
  const shards = Array.from({ length: TIMER_SHARDS }, (_, shard) => shard);
  const results = await Promise.all(shards.map((shard) => sweepShard(shard, handlers, settings)));
  return results.reduce((a, b) => ({ found: a.found + b.found, fired: a.fired + b.fired, failed: a.failed + b.failed }), { found: 0, fired: 0, failed: 0 });
}
