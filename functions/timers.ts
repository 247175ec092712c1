// Timers Lambdas: the wake-up consumer (SQS event source of the standard timers queue, partial batch failures
// reported) and the scheduled sweeper. Both fire a timer through its owner's handler. docs/timers.md.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { onAlertTimer } from '#lib/alerts/index.ts';
import { forwardWebhookTimer } from '#lib/webhooks/wake.ts';
import { onBroadcastTimer } from '#lib/broadcasts/send.ts';
import { nowMs } from '#lib/clock.ts';
import { onDeliveryTimer } from '#lib/delivery/sender.ts';
import { onProviderTimer } from '#lib/delivery/breaker-timer.ts';
import { lambdaLogging, logger } from '#lib/logger.ts';
import { wakeUpBatchHandler } from '#lib/timers/batch-handler.ts';
import { sweepTimers, type SweepResult } from '#lib/timers/sweeper.ts';
import type { TimerHandlers } from '#lib/timers/index.ts';
import { loadSecrets } from '#lib/channel-adapters/secrets.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';
import { onHeartbeatTimer } from '#lib/ingest/heartbeat/missed.ts';
import { onScheduleTimer } from '#lib/gap-check/check.ts';
import { deliverSignInRequest } from '#lib/console/sign-in-delivery.ts';
import { SIGN_IN_REQUEST_KIND } from '#lib/queue/sign-in.ts';

// On AWS, provider credentials and the link key come from the stack's secret, read once per cold start (docs/notifications.md).
await loadSecrets();

/** Time kept back from the Lambda's timeout so a sweep stops starting firings before it is cut off. */
const SWEEP_SAFETY_MS = 10_000;

/** The wake-up and sweep handlers for a set of owners' timer handlers. */
export function timerFunctions(handlers: Partial<TimerHandlers>) {
  // The timers queue also carries console sign-in requests, sent after POST /sign-in answered (docs/console.md, "Sign-in").
  const handler = wakeUpBatchHandler(handlers, 'Timer wake-up failed; it will be retried', { [SIGN_IN_REQUEST_KIND]: (body) => deliverSignInRequest(body, nowMs()) });
  const sweepHandler = middy<unknown, SweepResult, Error, Context>()
    .use(lambdaLogging())
    .handler(async (_event, context) => {
      const result = await sweepTimers(handlers, { deadline: nowMs() + context.getRemainingTimeInMillis() - SWEEP_SAFETY_MS });
      if (result.found > 0) logger.info('Timer sweep finished', { ...result });
      return result;
    });
  return { handler, sweepHandler };
}

/** The owners whose timers this deployment fires. */
// Webhook timers are only forwarded to the webhooks queue: their worker sends, so a slow receiver never holds this one.
export const OWNER_HANDLERS: TimerHandlers = {
  alert: onAlertTimer,
  broadcast: onBroadcastTimer,
  delivery: (timer, now) => onDeliveryTimer(DELIVERY_OWNERS, timer, now),
  webhook: forwardWebhookTimer,
  // A missed heartbeat is applied as a request of its integration (docs/monitors.md, "Heartbeat").
  heartbeat: onHeartbeatTimer,
  // A schedule's daily gap check (docs/schedules.md, "Gaps").
  schedule: onScheduleTimer,
  // A delivery provider's probe and release while its breaker is open (docs/decisions/0032-provider-breaker.md).
  provider: onProviderTimer,
};

export const { handler, sweepHandler } = timerFunctions(OWNER_HANDLERS);
