// The timer of a heartbeat fires: if it is still the current one and the integration still takes requests, the
// missed beat is applied as a request of the integration through the one applier (log, maintenance windows,
// exactly-once by the request id derived from the timer), then the timer is marked fired (docs/monitors.md, "Heartbeat").
import { isConditionFailure } from '../../db/conditions.ts';
import { transact } from '../../db/items.ts';
import { heartbeatPk, heartbeatStateKey } from '../../db/keys.ts';
import { findEntity } from '../../db/repository.ts';
import type { IntegrationData } from '../../integrations/schema.ts';
import { logger } from '../../logger.ts';
import type { IngestMessage } from '../../queue/ingest.ts';
import { markTimerFired, timerFiredItem, type DurableTimer } from '../../timers/index.ts';
import { integrationTypeIdOf } from '../apply.ts';
import { processIngestBody } from '../worker.ts';
import { HEARTBEAT_ALERT_KEY, MISSED_METHOD } from '../../monitor-readers/heartbeat-names.ts';
import { findHeartbeatState, type HeartbeatState } from './state.ts';

/** The request a missed beat is applied as: its id comes from the timer, so a firing repeated applies it once. */
export function missedMessage(timer: DurableTimer, state: HeartbeatState, integrationName: string, integrationPrefixId: string): IngestMessage {
  return {
    kind: 'webhook',
    requestId: `heartbeat-missed-${timer.timerId}`,
    accountId: timer.accountId,
    integrationId: timer.ownerId,
    // The time the beat was missed: a maintenance window active then silences it, as it would a request.
    receivedAt: timer.dueAt,
    method: MISSED_METHOD,
    path: `/integration/${integrationPrefixId}`,
    alertKey: HEARTBEAT_ALERT_KEY,
    headers: {},
    query: {},
    body: { integration_name: integrationName, last_ping_at: state.lastPingAt ?? null, due_at: timer.dueAt },
  };
}

/** Marks the timer fired and the state no longer due, unless a ping armed a newer timer meanwhile. */
async function settle(timer: DurableTimer, now: Date, missed: boolean): Promise<void> {
  try {
    await transact([
      timerFiredItem(heartbeatPk(timer.accountId, timer.ownerId), timer, now),
      {
        Update: {
          Key: heartbeatStateKey(timer.accountId, timer.ownerId),
          UpdateExpression: missed ? 'SET missedAt = :due REMOVE nextDueAt, timerId' : 'REMOVE nextDueAt, timerId',
          ConditionExpression: 'timerId = :timer',
          ExpressionAttributeValues: { ':timer': timer.timerId, ...(missed ? { ':due': timer.dueAt } : {}) },
        },
      },
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await markTimerFired(timer, now);
  }
}

/** The timer handler of owner type `heartbeat` (functions/timers.ts). */
export async function onHeartbeatTimer(timer: DurableTimer, now: Date): Promise<void> {
  const state = await findHeartbeatState(timer.accountId, timer.ownerId, true);
  // A later ping armed another timer, or the integration was disabled: this one is stale.
  if (!state || state.timerId !== timer.timerId) return markTimerFired(timer, now);
  const integration = await findEntity<IntegrationData>('INTEGRATION', timer.accountId, timer.ownerId);
  if (!integration || !integration.data.enabled || integrationTypeIdOf(integration.data) !== 'heartbeat') {
    logger.info('Heartbeat timer fired for an integration that is gone, disabled or no heartbeat; nothing to do', { integrationId: timer.ownerId });
    return settle(timer, now, false);
  }
  await processIngestBody(JSON.stringify(missedMessage(timer, state, integration.data.name, integration.prefixId)));
  await settle(timer, now, true);
}
