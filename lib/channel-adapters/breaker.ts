// A provider's breaker, the pure rules: which failures are the provider's, how many in a row open it, how long the
// held messages wait before the provider is asked again, and the words a held message shows. Its storage and the
// sender's use of it: lib/delivery/breaker.ts; docs/decisions/0032-provider-breaker.md.
import type { ChannelAdapter, SendResult } from './port.ts';

/** The line each probe in vain logs, with `down_for_seconds`: the stack alarms on it past five minutes (infra/delivery.ts). */
export const PROVIDER_STILL_DOWN_LOG_MESSAGE = 'Channel provider still down';

/** Provider-level failures in a row (in one process) that open the breaker: the first, so a message that failed is held
 * with those after it and goes out in its order, never on a retry timer of its own that a release could overtake. */
export const BREAKER_FAILURES = 1;

/** The first wait before the provider is probed again, doubled after each failed probe up to the longest. */
const FIRST_PROBE_MS = 5_000;
/** Held messages go within a minute of the provider's return: the probe never waits longer than this. */
const LONGEST_PROBE_MS = 30_000;

/** The breaker's key: the channel, the provider and the server it talks to (`email:smtp@mail.example.com:587`). */
export const breakerKey = (adapter: Pick<ChannelAdapter, 'channel' | 'provider' | 'endpoint'>): string =>
  `${adapter.channel}:${adapter.provider}${adapter.endpoint ? `@${adapter.endpoint}` : ''}`;

/** The provider's own failure (no connection, TLS, timeout, 5xx, 429, a refused greeting): it counts toward the breaker. */
export const isProviderFailure = (result: SendResult): boolean => result.status === 'failed' && result.scope === 'provider';

/** The wait before probe number `probes + 1` (0 probes made: the first), divided by the time scale. Pure. */
export function probeDelayMs(probes: number, timeScale = 1): number {
  const wait = Math.min(LONGEST_PROBE_MS, FIRST_PROBE_MS * 2 ** Math.max(0, probes));
  return Math.max(1, Math.ceil(wait / timeScale));
}

/** What a held message says (outbox `reason`, the alert's timeline): "email held: provider down since …". Pure. */
export function heldReason(channel: string, provider: string, since: string, error: string): string {
  return `${channel} held: provider down since ${since} (${provider}: ${error})`;
}
