// What an integration shows of its monitor type's own state (docs/monitors.md): an email integration's address, a
// heartbeat's last ping and next due time, an aws_cloudwatch integration's SNS subscriptions; and the heartbeat's
// disarm that rides with a disable.
import type { TransactItem } from '../db/writes.ts';
import { emailAddressOf } from '../integrations/email-address.ts';
import { disarmWrite, findHeartbeatState, renderHeartbeat } from './heartbeat/state.ts';
import { subscriptionsOf } from './sns/subscriptions.ts';
import type { IntegrationData } from '../integrations/schema.ts';
import type { EntityItem } from '../db/repository.ts';

type Item = EntityItem<IntegrationData>;
const typeOf = (item: Item) => item.data.integration_type?.id ?? 'webhook';

/** Fields every rendering shows without a read: an email integration's address. */
export function typeFieldsOf(item: Item): Record<string, unknown> {
  return typeOf(item) === 'email' ? { email_address: emailAddressOf(item.prefixId) } : {};
}

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
