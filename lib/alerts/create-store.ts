// Storing a new alert: its escalations started (directly or through routers), pages queued and timers stored, in one
// transaction with the caller's writes (docs/alerts.md, "Router destinations").
import { alertPk } from '../db/keys.ts';
import { type EntityItem } from '../db/repository.ts';
import { putNew, TRANSACTION_ITEMS, type TransactItem } from '../db/writes.ts';
import { type Destination } from '../escalation-engine/index.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { delayedStartLog, delayedStartTimers, delayGroups } from './delayed.ts';
import { accountUserDestinations, teamStarts } from './destinations.ts';
import type { TeamData } from '../teams/schema.ts';
import { alertTimer, DELIVER_TIMER_KIND, effectWrites, nextId, type DeliveryPayload } from './effects.ts';
import { fitsInOneTransaction } from './batching.ts';
import { alertCreateWrites, alertIndexKeys, dedupCountWrite, logItem, type AlertItem, type LogEntry } from './items.ts';
import { findParent, fingerprintItem, routeThroughRouters } from './through-routers.ts';
import { withRoutingChanges, type RoutedReceiver } from '../routing-engine/index.ts';
import { advance, withState } from './runner.ts';
import { transactAlert } from './store.ts';
import { WEBHOOK_CHANGE_WRITES } from '../webhooks/index.ts';
import { outgoingWebhookCount } from './webhook-events.ts';
import { cachedAbsencesOf } from '../time-off/service.ts';
import { configCacheOn } from '../db/config-reads.ts';

const routedLog = (d: Destination): LogEntry =>
  d.kind === 'team'
    ? { event: 'routed', message: `Routed to team ${d.team_id} (escalation policy ${d.policy.policy_id} copied).`, team_id: d.team_id }
    : { event: 'routed', message: `Routed to account user ${d.account_user_id}, paged directly.`, account_user_id: d.account_user_id };

/**
 * Starts the escalations of the teams and account users and writes the new alert with everything the step did,
 * and a `delayed_start` timer for each delay a router held receivers back by (docs/alerts.md, "Router destinations").
 */
async function startAndStore(
  pending: PendingAlert,
  teamIds: readonly string[],
  accountUserIds: readonly string[],
  logs: LogEntry[],
  now: number,
  extra: TransactItem[] = [],
  delayed: readonly RoutedReceiver[] = [],
): Promise<AlertItem> {
  const { accountId } = pending.queued;
  // Independent reads at once: each team's policy and schedule events, the account users, the alert's tiny id, and
  // the time off and outgoing webhook count the step and its transaction read next (kept by the configuration cache,
  // so a cold cache costs one round trip for all of them: docs/alerts.md, "Configuration reads in a storm").
  const ahead = configCacheOn() ? [cachedAbsencesOf(accountId), outgoingWebhookCount(accountId)] : [];
  const [teams, people, tinyId] = await Promise.all([
    teamStarts(accountId, teamIds, pending.knownTeams),
    accountUserDestinations(accountId, accountUserIds, pending.knownAccountUsers),
    pending.tinyId,
    ...ahead,
  ] as const);
  const queued = { ...pending.queued, tinyId };
  const destinations: Destination[] = [...teams.destinations, ...people];
  const schedules = teams.schedules;
  const groups = delayGroups(delayed);
  const result = await advance(accountId, queued.escalation, { type: 'start', destinations, schedules, delayedStarts: groups.length }, now);
  if (!result.ok) throw new Error(result.message);
  const alert = { ...withState(queued, result.state, now), updatedAt: queued.createdAt };
  const delayedTimers = delayedStartTimers(alert, groups, now);
  const delayedLogs = groups.flatMap((group, i) => group.map((receiver) => delayedStartLog(receiver, delayedTimers[i]!)));
  const base = alertCreateWrites(alert);
  // The caller's mark rides in the create's transaction with the other extra writes.
  const withMark = [...extra, ...pending.markStored(alert)];
  // Delayed starts that would crowd the create's transaction go, durably, as the payload of one deliver timer.
  const timersInline = fitsInOneTransaction(base.length + withMark.length, INLINE_TIMER_WRITES, delayedTimers);
  const stored = timersInline ? delayedTimers : [timerCarrier(alert, delayedTimers, now)];
  const created = [...base, ...timerPutItems(alertPk(accountId, alert.id), stored, new Date(now).toISOString())];
  const planned = await effectWrites(alert, result.effects, now, [...logs, ...destinations.map(routedLog), ...delayedLogs], created.length + withMark.length + WEBHOOK_CHANGE_WRITES);
  await transactAlert([...created, ...planned.writes, ...withMark]);
  await sendWakeUps([...stored, ...planned.timers]);
  return alert;
}

/**
 * How many of a create's writes may be its own items and timers: the rest of the transaction stays for the step's
 * logs, pages and layer timers (which overflow through their own deliver timer).
 */
const INLINE_TIMER_WRITES = TRANSACTION_ITEMS / 2;

/** A deliver timer due now carrying timers to store (docs/alerts.md, "Router destinations"). */
function timerCarrier(alert: AlertItem, timers: DurableTimer[], now: number): DurableTimer {
  const at = new Date(now).toISOString();
  const payload: DeliveryPayload = { at, logs: [], messages: [], timers };
  return alertTimer(alert, DELIVER_TIMER_KIND, at, payload, now);
}

/**
 * An alert about to be stored: its queued item (tiny id not yet known), the tiny id being allocated meanwhile, and
 * the destination teams the create already read (not read again).
 */
export interface PendingAlert {
  queued: AlertItem;
  tinyId: Promise<number>;
  knownTeams: ReadonlyMap<string, EntityItem<TeamData>>;
  /** The destination account users the create just found (not read again); those a router adds are read. */
  knownAccountUsers: ReadonlySet<string>;
  /** The caller's writes for the alert as stored, in the same transaction (AlertFromOptions.markStored). */
  markStored: (alert: AlertItem) => TransactItem[];
}

export const createDirect = (pending: PendingAlert, ids: { teamIds: string[]; accountUserIds: string[] }, logs: LogEntry[], now: number, claims: TransactItem[]) =>
  startAndStore(pending, ids.teamIds, ids.accountUserIds, logs, now, claims);

/**
 * An alert with router destinations: the routers' outcome decides its fields (setval, incident), its
 * stakeholders and its receivers; an aggregate with a parent makes it that parent's suppressed child; an ignore
 * with nobody else to page suppresses it (docs/alerts.md, "Router destinations").
 */
export async function createThroughRouters(
  pending: PendingAlert,
  ids: { teamIds: string[]; routerIds: string[]; accountUserIds: string[] },
  createdLogs: readonly LogEntry[],
  now: number,
  claims: TransactItem[],
): Promise<AlertItem> {
  const { queued } = pending;
  const { accountId } = queued;
  const routingAlert = { ...queued.data, meta: queued.meta };
  const outcome = await routeThroughRouters(accountId, routingAlert, { router_ids: ids.routerIds, team_ids: ids.teamIds, account_user_ids: ids.accountUserIds }, new Date(now));
  const changed = withRoutingChanges(routingAlert, outcome.changes);
  const { meta, ...fields } = changed;
  const alert: AlertItem = {
    ...queued,
    tinyId: await pending.tinyId,
    meta: { ...meta },
    data: { ...queued.data, ...fields, tag_list: [...fields.tag_list], description: fields.description ?? null, stakeholder_ids: [...outcome.stakeholder_ids] },
  };
  const logs: LogEntry[] = [
    ...createdLogs,
    ...outcome.log.map((entry) => ({ event: entry.event, message: entry.message, router_id: entry.router_id ?? undefined, team_id: entry.team_id, account_user_id: entry.account_user_id })),
  ];
  const at = queued.createdAt;

  const parent = outcome.aggregates.length > 0 ? await findParent(accountId, outcome.aggregates, at) : undefined;
  if (parent) {
    const child: AlertItem = { ...alert, version: 1, data: { ...alert.data, parent_id: parent.parent.id, status: 'suppressed' }, escalation: { ...alert.escalation, status: 'suppressed' } };
    Object.assign(child, alertIndexKeys(accountId, child.id, at, 'suppressed'));
    const childLog: LogEntry = { event: 'aggregated', message: `Aggregated into alert ${parent.parent.prefixId}: nobody is paged for this alert.`, router_id: parent.decision.router_id };
    const { writes } = await effectWrites(child, [], now, [...logs, childLog]);
    const parentLog = logItem(accountId, parent.parent.id, nextId(now), at, {
      event: 'deduplicated',
      message: `Alert ${child.prefixId} was aggregated into this alert (dedup_count + 1).`,
      router_id: parent.decision.router_id,
    });
    await transactAlert([...alertCreateWrites(child), ...writes, dedupCountWrite(parent.parent, at), putNew(parentLog), ...claims, ...pending.markStored(child)]);
    return child;
  }

  const extraWrites = [...outcome.aggregates.map((decision) => putNew(fingerprintItem(alert, decision))), ...claims];
  const startNow = outcome.receivers.filter((r) => r.delay_ms === 0);
  const delayed = outcome.receivers.filter((r) => r.delay_ms > 0);
  const teams = startNow.filter((r) => r.kind === 'team').map((r) => r.id);
  const people = startNow.filter((r) => r.kind === 'account_user').map((r) => r.id);
  if (outcome.receivers.length === 0 && outcome.status === 'suppressed') {
    const suppressed: AlertItem = withState(alert, { ...alert.escalation, status: 'suppressed' }, now);
    const stored = { ...suppressed, updatedAt: at };
    const { writes } = await effectWrites(stored, [], now, logs);
    await transactAlert([...alertCreateWrites(stored), ...writes, ...extraWrites, ...pending.markStored(stored)]);
    return stored;
  }
  return startAndStore({ ...pending, queued: alert }, teams, people, logs, now, extraWrites, delayed);
}
