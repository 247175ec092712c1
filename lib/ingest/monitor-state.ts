// Ingest's side of the integration type port (lib/integrations/type-state.ts, decision 0034): what an integration
// shows of its monitor type's state kept here (a heartbeat's last ping and next due time, an aws_cloudwatch
// integration's SNS subscriptions; docs/monitors.md), and the heartbeat's disarm that rides with a disable.
import type { TransactItem } from '../db/writes.ts';
import type { EntityItem } from '../db/repository.ts';
import type { IntegrationData } from '../integrations/schema.ts';
import { typeOf, type IntegrationTypeState } from '../integrations/type-state.ts';
import { disarmWrite, findHeartbeatState, renderHeartbeat } from './heartbeat/state.ts';
import { subscriptionsOf } from './sns/subscriptions.ts';

type Item = EntityItem<IntegrationData>;

/** Fields `GET /integrations/:id` shows from the type's state items (one read for the types that have one). */
export async function typeStateOf(item: Item): Promise<Record<string, unknown>> {
  const type = typeOf(item);
  if (type === 'heartbeat') return renderHeartbeat(await findHeartbeatState(item.accountId, item.id), item.data.enabled);
  if (type === 'aws_cloudwatch') return { subscriptions: await subscriptionsOf(item.accountId, item.id) };
  return {};
}

/** A heartbeat being disabled is disarmed in the same transaction: its timer goes stale, nothing is due until a ping. */
export async function disableWrites(current: Item, next: IntegrationData): Promise<TransactItem[]> {
  if (typeOf(current) !== 'heartbeat' || !current.data.enabled || next.enabled) return [];
  const state = await findHeartbeatState(current.accountId, current.id, true);
  return state?.timerId ? [disarmWrite(current.accountId, current.id)] : [];
}

export const monitorTypeState: IntegrationTypeState = { stateOf: typeStateOf, changeWrites: disableWrites };
