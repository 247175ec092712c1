// The actions on an alert (acknowledge, resolve, reject), by a person or an integration, through the runner
// (lib/alerts/runner.ts; docs/alerts.md, "Actions").
import { type TransactItem } from '../db/writes.ts';
import type { AlertItem } from './items.ts';
import { applyToAlert, schedulesOfState } from './runner.ts';
import type { AlertActor } from './schema.ts';

export const acknowledgeAlert = (actor: AlertActor, id: string) => applyToAlert(actor.accountId, id, () => ({ type: 'acknowledge', by: actor.accountUserId }));
export const resolveAlert = (actor: AlertActor, id: string) => applyToAlert(actor.accountId, id, () => ({ type: 'resolve', by: actor.accountUserId }));
/** A non-person actor of an action: an integration (its webhook), named in the alert's log. */
export interface ActionSource {
  readonly source_type: 'Integration';
  readonly source_id: string;
}

const viaOf = (source: ActionSource) => `integration ${source.source_id}`;

/**
 * Acknowledge by an integration: `by: null` (no person's workflow becomes `acknowledged`), logged as the integration's.
 * `extraWrites` join the action's transaction; `known` is the alert as the caller just read it (not read again first).
 */
export const acknowledgeAlertFrom = (accountId: string, id: string, source: ActionSource, extraWrites: readonly TransactItem[] = [], known?: AlertItem) =>
  applyToAlert(accountId, id, () => ({ type: 'acknowledge', by: null, via: viaOf(source) }), [], extraWrites, known);
/** Resolve by an integration, logged as the integration's; `extraWrites` join the action's transaction; `known` as above. */
export const resolveAlertFrom = (accountId: string, id: string, source: ActionSource, extraWrites: readonly TransactItem[] = [], known?: AlertItem) =>
  applyToAlert(accountId, id, () => ({ type: 'resolve', by: null, via: viaOf(source) }), [], extraWrites, known);

export const rejectAlert = (actor: AlertActor, id: string) =>
  applyToAlert(actor.accountId, id, async (alert) => ({ type: 'reject', by: actor.accountUserId, schedules: await schedulesOfState(actor.accountId, alert.escalation) }));
