// Words of the routing log (docs/routing.md, "The log"): each entry is a sentence a person reads.
import { Duration } from 'luxon';
import type { RoutingRouter } from './types.ts';

export const routerLabel = (router: RoutingRouter): string => `Router "${router.name}" (${router.prefix_id})`;

/** Rules are numbered from 1, top-down, as a person counts them in the YAML. */
export const ruleLabel = (ruleIndex: number): string => `rule ${ruleIndex + 1}`;

export const receiverNoun = (kind: 'team' | 'account_user'): string => (kind === 'team' ? 'team' : 'account user');

/** "10 minutes", "1 hour and 30 minutes", "250 milliseconds". */
export function durationText(ms: number): string {
  return ms <= 0 ? '0 seconds' : Duration.fromMillis(ms).rescale().toHuman({ listStyle: 'long', unitDisplay: 'long' });
}

/** " after 10 minutes", or nothing for no delay. */
export const afterDelay = (ms: number): string => (ms > 0 ? ` after ${durationText(ms)}` : '');

export const chainText = (chain: readonly RoutingRouter[]): string => chain.map((router) => router.prefix_id).join(' → ');
