// Waking webhook timers after the commit that stored them: one due now goes straight to the webhooks queue (one hop
// instead of the timers queue and a forward); a later one, or one the webhooks queue refused, is woken like any
// timer (docs/timers.md), and the sweeper covers a lost message either way.
import { nowMs } from '../clock.ts';
import { sendWebhookWork } from '../queue/webhooks.ts';
import { sendWakeUps, type DurableTimer } from '../timers/index.ts';
import { wakeUpMessageOf } from '../timers/wake-ups.ts';

export async function wakeWebhookTimers(timers: readonly DurableTimer[]): Promise<void> {
  const now = nowMs();
  const later: DurableTimer[] = [];
  for (const timer of timers) {
    if (Date.parse(timer.dueAt) > now) {
      later.push(timer);
      continue;
    }
    try {
      await sendWebhookWork(wakeUpMessageOf(timer));
    } catch {
      later.push(timer);
    }
  }
  await sendWakeUps(later);
}

/**
 * The timers worker's handler of webhook timers: it only forwards the wake-up to the webhooks queue, so a slow
 * receiver never holds the Lambda that fires escalations. The timer stays pending until the webhooks worker
 * fires it; a lost forward is swept again. (Here, not beside the webhooks worker, so the timers Lambda does not load
 * the sending code.)
 */
export async function forwardWebhookTimer(timer: DurableTimer): Promise<void> {
  await sendWebhookWork(wakeUpMessageOf(timer));
}
