// The alert resource: create (routed synchronously), read, update, delete, the actions and the per-alert views.
// Storage: lib/alerts/store.ts; escalation: lib/alerts/runner.ts. Choices: docs/alerts.md, "The alert resource".
import { nowMs } from '../clock.ts';
import { timeScale } from '../config.ts';
import { getItems, incrementCounter } from '../db/items.ts';
import { commentThreadOf } from '../comments/thread.ts';
import { accountPk, alertKey, alertPk, entitySk, type EntityType } from '../db/keys.ts';
import { resolveIdList } from '../db/references.ts';
import { findEntity, type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { aliasDelete, batchUnits, counterKey, deleteAny, deletionUnit, putNew, TRANSACTION_ITEMS, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { transact } from '../db/items.ts';
import { invalid } from '../errors.ts';
import { newAlertEscalation, type Destination, type Escalation, type PersonWorkflow } from '../escalation-engine/index.ts';
import { newId, newPrefixId } from '../ids.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { claimsForAddedKeys, claimWrites, duplicateWrites, lookUpDedupKeys, releaseClaims, takesDuplicates } from './dedup.ts';
import { delayedStartLog, delayedStartTimers, delayGroups } from './delayed.ts';
import { accountUserDestinations, teamStarts } from './destinations.ts';
import type { TeamData } from '../teams/schema.ts';
import { alertTimer, DELIVER_TIMER_KIND, effectWrites, nextId, type DeliveryPayload } from './effects.ts';
import { fitsInOneTransaction } from './batching.ts';
import { alertCountChanges, alertCounts, alertCreateWrites, alertIndexKeys, aliasOf, dedupCountWrite, logItem, type AlertItem, type AlertNotificationItem, type LogEntry } from './items.ts';
import { findParent, fingerprintItem, routeThroughRouters } from './routing.ts';
import { withRoutingChanges, type RoutedReceiver } from '../routing/index.ts';
import { advance, applyToAlert, schedulesOfState, withState } from './runner.ts';
import { hasDestination, NO_DESTINATION, tagsOf, type AlertCreateInput, type AlertData, type AlertUpdateInput } from './schema.ts';
import { commitAlert, findAlert, getAlertItem, logsOf, notificationsOf, partitionOf, transactAlert } from './store.ts';

export { activeAlertOfThirdparty, newestAlertOfThirdparty } from './store.ts';
import { WEBHOOK_CHANGE_WRITES } from '../webhooks/index.ts';

/** Who creates or acts on an alert through the API. */
export interface AlertActor {
  accountId: string;
  accountUserId: string;
}

/** The API object: common attributes and the alert's fields, `tags` beside `tag_list` (lib/alerts/items.ts). */
export { renderAlert } from './items.ts';

export const getAlert = getAlertItem;

async function resolveDestinations(accountId: string, input: AlertCreateInput): Promise<DestinationIds> {
  const lists: [EntityType, string, string, string[] | undefined][] = [
    ['TEAM', 'destination_team_ids', 'team', input.destination_team_ids],
    ['ROUTER', 'destination_router_ids', 'router', input.destination_router_ids],
    ['ACCOUNT_USER', 'destination_account_user_ids', 'account user', input.destination_account_user_ids],
  ];
  const [teams, routers, users] = await Promise.all(lists.map(([type, field, noun, ids]) => resolveIdList(type, accountId, field, noun, ids ?? [])));
  const problems = [...teams!.problems, ...routers!.problems, ...users!.problems];
  if (problems.length > 0) throw invalid(problems);
  const teamItems = new Map(teams!.items.map((item) => [item.id, item as EntityItem<TeamData>]));
  return { teamIds: teams!.ids, routerIds: routers!.ids, accountUserIds: users!.ids, teamItems };
}

/** The checked destinations of a create, with the team items already read for the check. */
interface DestinationIds {
  teamIds: string[];
  routerIds: string[];
  accountUserIds: string[];
  teamItems?: ReadonlyMap<string, EntityItem<TeamData>>;
}

/**
 * POST /alerts: validates the destinations (each must exist: 422 naming the unknown id), stores the alert already
 * routed — its escalations started, first pages queued, timers stored — in one transaction, then sends the
 * timers' wake-ups. The answer shows `open`, `dropped` (nobody to page) or, through a router, `suppressed`.
 */
export async function createAlert(actor: AlertActor, input: AlertCreateInput): Promise<AlertFromOutcome> {
  if (!hasDestination(input)) throw invalid(NO_DESTINATION);
  const destinationIds = await resolveDestinations(actor.accountId, input);
  const source: AlertSource = { source_type: 'AccountUser', source_id: actor.accountUserId, thirdparty_id: input.thirdparty_id ?? null };
  return storeNewAlert(actor.accountId, source, input, destinationIds, []);
}

/** Who an alert comes from: a person through the API, or an integration (its webhook request); each may name an external id. */
export type AlertSource =
  | { readonly source_type: 'AccountUser'; readonly source_id: string; readonly thirdparty_id?: string | null }
  | { readonly source_type: 'Integration'; readonly source_id: string; readonly source_log_id: string | null; readonly thirdparty_id: string | null };

/** The fields of an alert created by another source; destination ids are canonical ids checked when configured. */
export interface AlertFromInput {
  title: string;
  description?: string | null | undefined;
  urgency: AlertCreateInput['urgency'];
  tags?: string[] | undefined;
  meta?: Record<string, unknown> | undefined;
  dedup_keys?: string[] | undefined;
  additional_data?: AlertCreateInput['additional_data'];
  destination_team_ids: readonly string[];
  destination_router_ids: readonly string[];
  destination_account_user_ids: readonly string[];
}

export interface AlertFromOptions {
  /**
   * The alert's id, chosen by the caller (a ULID): a repeated create with the same id finds the alert the first one
   * stored (the write is conditional) instead of storing a second one, so an at-least-once worker can retry.
   */
  alertId?: string;
  /**
   * The caller knows no alert has `alertId` yet (it looked, or nothing could have stored one), so the first attempt
   * does not read for it; an attempt after a lost race still does.
   */
  absentChecked?: boolean;
  /**
   * Writes the caller commits in the same transaction as what the create stores — the new alert, or the dedup count
   * of the alert it folded into — built from that alert. The webhook worker's mark (its request's apply notes) goes
   * here, so the create and the mark land together and a repeat fails on the mark instead of counting again.
   */
  markStored?: (stored: StoredCreate) => TransactItem[];
}

/** What a create stored: a new alert, or one more duplicate on the alert holding one of its dedup keys. */
export interface StoredCreate {
  alert: AlertItem;
  outcome: 'created' | 'deduplicated';
}

/**
 * What a create did: stored a new alert, found the one stored under the same id, or folded into the non-resolved
 * alert holding one of its dedup keys (`alert` is then that alert, its dedup_count counted).
 */
export interface AlertFromOutcome {
  alert: AlertItem;
  outcome: 'created' | 'existing' | 'deduplicated';
}

/**
 * Creates an alert for another source (an integration's webhook): the same routing, escalation and single
 * transaction as POST /alerts. Destinations deleted since they were configured are skipped with a `routed` log
 * entry saying so (with none left the alert is dropped); with `alertId` a retried create returns the first one's
 * alert (docs/alerts.md, "Other sources").
 */
export async function createAlertFrom(accountId: string, source: AlertSource, input: AlertFromInput, options: AlertFromOptions = {}): Promise<AlertFromOutcome> {
  const [teams, routers, users] = await Promise.all([
    existingIds(accountId, 'TEAM', input.destination_team_ids),
    existingIds(accountId, 'ROUTER', input.destination_router_ids),
    existingIds(accountId, 'ACCOUNT_USER', input.destination_account_user_ids),
  ]);
  const missing: LogEntry[] = [
    ...teams.missing.map((id) => missingLog('team', id)),
    ...routers.missing.map((id) => missingLog('router', id)),
    ...users.missing.map((id) => missingLog('account user', id)),
  ];
  const teamItems = new Map(teams.items.map((item) => [item.id, item as EntityItem<TeamData>]));
  const destinationIds = { teamIds: teams.found, routerIds: routers.found, accountUserIds: users.found, teamItems };
  return storeNewAlert(accountId, source, input, destinationIds, missing, options);
}

/** The ids (of one type) that still exist in the account, and the ones that do not. */
async function existingIds(accountId: string, type: EntityType, ids: readonly string[]): Promise<{ found: string[]; items: EntityItem<unknown>[]; missing: string[] }> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => findEntity(type, accountId, id)));
  const items = found.filter((item) => item !== undefined);
  return { found: items.map((item) => item.id), items, missing: unique.filter((_, i) => found[i] === undefined) };
}

const missingLog = (noun: string, id: string): LogEntry => ({
  event: 'routed',
  message: `Destination ${noun} ${id} no longer exists; skipped.`,
  ...(noun === 'team' ? { team_id: id } : noun === 'router' ? { router_id: id } : { account_user_id: id }),
});

const sourceWords = (source: AlertSource) => (source.source_type === 'AccountUser' ? `account user ${source.source_id}` : `integration ${source.source_id}`);

const createdLog = (source: AlertSource): LogEntry =>
  source.source_type === 'AccountUser'
    ? { event: 'created', message: `Alert created by account user ${source.source_id}.`, account_user_id: source.source_id }
    : { event: 'created', message: `Alert created by integration ${source.source_id}${source.source_log_id ? ` (request ${source.source_log_id})` : ''}.` };

/**
 * Builds the queued alert and stores it routed (directly or through routers), retrying a lost race. With a
 * caller-chosen `alertId`, an attempt that finds the alert already stored (a retry collided) returns it.
 */
async function storeNewAlert(
  accountId: string,
  source: AlertSource,
  input: Omit<AlertFromInput, 'destination_team_ids' | 'destination_router_ids' | 'destination_account_user_ids'>,
  destinationIds: DestinationIds,
  extraLogs: LogEntry[],
  { alertId, absentChecked = false, markStored = () => [] }: AlertFromOptions = {},
): Promise<AlertFromOutcome> {
  const scale = timeScale();
  const id = alertId ?? newId();
  const now = nowMs();
  const createdAt = new Date(now).toISOString();
  const state = newAlertEscalation(scale);
  const data: AlertData = {
    title: input.title,
    description: input.description ?? null,
    urgency: input.urgency,
    status: state.status,
    tag_list: tagsOf(input) ?? [],
    source_type: source.source_type,
    source_id: source.source_id,
    source_log_id: source.source_type === 'Integration' ? source.source_log_id : null,
    thirdparty_id: source.thirdparty_id ?? null,
    acknowledged_at: null,
    resolved_at: null,
    dedup_keys: [...new Set(input.dedup_keys ?? [])],
    dedup_count: 0,
    additional_data: input.additional_data ?? [],
    parent_id: null,
    destination_team_ids: destinationIds.teamIds,
    destination_router_ids: destinationIds.routerIds,
    destination_account_user_ids: destinationIds.accountUserIds,
    stakeholder_ids: [],
  };
  const queued: AlertItem = {
    ...alertKey(accountId, id),
    type: 'ALERT',
    accountId,
    id,
    prefixId: newPrefixId('ALERT'),
    tinyId: 0,
    version: 0,
    createdAt,
    updatedAt: createdAt,
    meta: input.meta ?? {},
    data,
    escalation: state,
  };

  const logs = [createdLog(source), ...extraLogs];
  let tinyId: Promise<number> | undefined;
  return retryOnConflict(
    async (attempt): Promise<AlertFromOutcome> => {
      // A retried create (or a retry of this one after a lost race) finds the alert stored under its id.
      if (alertId !== undefined && (attempt > 1 || !absentChecked)) {
        const existing = await findAlert(accountId, alertId);
        if (existing) return { alert: existing, outcome: 'existing' };
      }
      const dedup = await lookUpDedupKeys(accountId, data.dedup_keys);
      if (dedup.kind === 'duplicate') {
        await transact([...duplicateWrites(dedup.target, dedup.dedupKey, sourceWords(source), nowMs()), ...markStored({ alert: dedup.target, outcome: 'deduplicated' })]);
        return { alert: await getAlertItem(accountId, dedup.target.id), outcome: 'deduplicated' };
      }
      // A tiny id only for an alert actually stored, allocated once across attempts, while the routing reads run.
      if (tinyId === undefined) {
        tinyId = incrementCounter(counterKey(accountId, 'ALERT'), 'lastTinyId');
        tinyId.catch(() => undefined); // awaited by the store below; this only keeps an early failure from going unhandled
      }
      const pending: PendingAlert = {
        queued,
        tinyId,
        knownTeams: destinationIds.teamItems ?? new Map(),
        knownAccountUsers: new Set(destinationIds.accountUserIds),
        markStored: (alert) => markStored({ alert, outcome: 'created' }),
      };
      const claims = claimWrites(queued, dedup.staleClaims);
      const alert =
        destinationIds.routerIds.length > 0 ? await createThroughRouters(pending, destinationIds, logs, now, claims) : await createDirect(pending, destinationIds, logs, now, claims);
      return { alert, outcome: 'created' };
    },
    { exhausted: changedMeanwhile('Alert') },
  );
}

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
  // Independent reads at once: each team's policy and schedule events, the account users, the alert's tiny id.
  const [teams, people, tinyId] = await Promise.all([
    teamStarts(accountId, teamIds, pending.knownTeams),
    accountUserDestinations(accountId, accountUserIds, pending.knownAccountUsers),
    pending.tinyId,
  ]);
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
interface PendingAlert {
  queued: AlertItem;
  tinyId: Promise<number>;
  knownTeams: ReadonlyMap<string, EntityItem<TeamData>>;
  /** The destination account users the create just found (not read again); those a router adds are read. */
  knownAccountUsers: ReadonlySet<string>;
  /** The caller's writes for the alert as stored, in the same transaction (AlertFromOptions.markStored). */
  markStored: (alert: AlertItem) => TransactItem[];
}

const createDirect = (pending: PendingAlert, ids: { teamIds: string[]; accountUserIds: string[] }, logs: LogEntry[], now: number, claims: TransactItem[]) =>
  startAndStore(pending, ids.teamIds, ids.accountUserIds, logs, now, claims);

/**
 * An alert with router destinations: the routers' outcome decides its fields (setval, incident), its
 * stakeholders and its receivers; an aggregate with a parent makes it that parent's suppressed child; an ignore
 * with nobody else to page suppresses it (docs/alerts.md, "Router destinations").
 */
async function createThroughRouters(
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

const CHANGED_FIELDS = ['title', 'description', 'urgency', 'tag_list', 'meta', 'dedup_keys', 'additional_data'] as const;

/** PUT /alerts/:id: the editable fields; status changes only through the actions. Logs `updated` naming the fields. */
export async function updateAlert(actor: AlertActor, idOrPrefixId: string, input: AlertUpdateInput): Promise<AlertItem> {
  const { alert } = await changeAlertFields(actor.accountId, idOrPrefixId, input, { by: `account user ${actor.accountUserId}`, account_user_id: actor.accountUserId });
  return alert;
}

/** Who changes an alert's fields, as its `updated` log entry names them. */
export interface ChangedBy {
  by: string;
  account_user_id?: string;
}

/**
 * Changes the fields present in `input` (the rest stay): one transaction conditioned on the version read, with an
 * `updated` log entry naming the fields, the claims of dedup keys it adds and the caller's `extraWrites`; keys it
 * removes are released after. Nothing changed → nothing written (`changed` is empty).
 */
export async function changeAlertFields(
  accountId: string,
  idOrPrefixId: string,
  input: AlertUpdateInput,
  changedBy: ChangedBy,
  extraWrites: readonly TransactItem[] = [],
): Promise<{ alert: AlertItem; changed: string[] }> {
  const updated = await retryOnConflict(
    async (): Promise<{ alert: AlertItem; changed: string[]; removedKeys: string[] }> => {
      const current = await getAlertItem(accountId, idOrPrefixId);
      const tags = tagsOf(input);
      const data: AlertData = {
        ...current.data,
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.urgency !== undefined ? { urgency: input.urgency } : {}),
        ...(tags !== undefined ? { tag_list: tags } : {}),
        ...(input.dedup_keys !== undefined ? { dedup_keys: [...new Set(input.dedup_keys)] } : {}),
        ...(input.additional_data !== undefined ? { additional_data: input.additional_data } : {}),
      };
      const meta = input.meta ?? current.meta;
      const now = nowMs();
      const next: AlertItem = { ...current, data, meta, version: current.version + 1, updatedAt: new Date(now).toISOString() };
      const before = { ...current.data, meta: current.meta } as Record<string, unknown>;
      const after = { ...data, meta } as Record<string, unknown>;
      const changed = CHANGED_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
      if (changed.length === 0) return { alert: current, changed, removedKeys: [] };
      const { writes } = await effectWrites(next, [], now, [
        { event: 'updated', message: `Alert updated by ${changedBy.by}: ${changed.join(', ')}.`, account_user_id: changedBy.account_user_id },
      ]);
      const added = data.dedup_keys.filter((key) => !current.data.dedup_keys.includes(key));
      const claims = takesDuplicates(next) ? await claimsForAddedKeys(next, added) : [];
      await commitAlert(current, next, [...writes, ...claims, ...extraWrites]);
      return { alert: next, changed, removedKeys: current.data.dedup_keys.filter((key) => !data.dedup_keys.includes(key)) };
    },
    { exhausted: changedMeanwhile('Alert') },
  );
  await releaseClaims(updated.alert, updated.removedKeys);
  return { alert: updated.alert, changed: updated.changed };
}

/**
 * A repeated create of an alert that is still active (an integration's create with the thirdparty_id of its active
 * alert): dedup_count + 1 and a `deduplicated` log entry, nobody paged, in one transaction conditioned on the version
 * read, with the caller's `extraWrites`. A lost race throws the condition failure: the caller decides again (the
 * alert may have been resolved meanwhile, and then the create makes a new alert).
 */
export async function countDuplicate(alert: AlertItem, from: string, extraWrites: readonly TransactItem[] = []): Promise<AlertItem> {
  const now = nowMs();
  const next: AlertItem = { ...alert, data: { ...alert.data, dedup_count: alert.data.dedup_count + 1 }, version: alert.version + 1, updatedAt: new Date(now).toISOString() };
  const { writes } = await effectWrites(next, [], now, [{ event: 'deduplicated', message: `A repeated create from ${from}: dedup_count + 1, nobody is paged.` }]);
  await commitAlert(alert, next, [...writes, ...extraWrites]);
  return next;
}

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
 * `extraWrites` join the action's transaction.
 */
export const acknowledgeAlertFrom = (accountId: string, id: string, source: ActionSource, extraWrites: readonly TransactItem[] = []) =>
  applyToAlert(accountId, id, () => ({ type: 'acknowledge', by: null, via: viaOf(source) }), [], extraWrites);
/** Resolve by an integration, logged as the integration's; `extraWrites` join the action's transaction. */
export const resolveAlertFrom = (accountId: string, id: string, source: ActionSource, extraWrites: readonly TransactItem[] = []) =>
  applyToAlert(accountId, id, () => ({ type: 'resolve', by: null, via: viaOf(source) }), [], extraWrites);

export const rejectAlert = (actor: AlertActor, id: string) =>
  applyToAlert(actor.accountId, id, async (alert) => ({ type: 'reject', by: actor.accountUserId, schedules: await schedulesOfState(actor.accountId, alert.escalation) }));

/**
 * DELETE /alerts/:id: first the alert item (only as read: a concurrent change makes it read again), its alias and
 * its counts in one transaction, so it leaves every list at once; then the rest of its partition (logs,
 * notification records, team and thirdparty index items, timers), its comments with their replies and its outbox
 * messages, in transactions of at most 100 writes, and its dedup key claims. A
 * crash between them leaves only unreachable items, which a repeated delete cannot reach either; a timer left
 * behind finds no alert and does nothing.
 */
export async function deleteAlert(actor: AlertActor, idOrPrefixId: string): Promise<void> {
  const alert = await retryOnConflict(
    async () => {
      const current = await getAlertItem(actor.accountId, idOrPrefixId);
      const first: TransactItem[] = [
        { Delete: { Key: { pk: current.pk, sk: current.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } } },
        deleteAny(aliasOf(current)),
        ...alertCountChanges(current.accountId, alertCounts(current, -1)),
      ];
      await transact(first);
      return current;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Alert') },
  );
  const [children, comments] = await Promise.all([partitionOf(alert.accountId, alert.id), commentThreadOf(alert.accountId, { type: 'Alert', id: alert.id })]);
  const outboxIds = children.filter((item) => item.type === 'ALERT_NOTIFICATION').map((item) => (item as unknown as AlertNotificationItem).outbox_id);
  const outboxes = await getItems<EntityItem<unknown>>(outboxIds.filter((id): id is string => id !== null).map((id) => ({ pk: accountPk(alert.accountId), sk: entitySk('OUTBOX', id) })));
  const units: WriteUnit[] = [
    ...children.filter((item) => item.sk !== alert.sk).map((item) => ({ writes: [deleteAny(item)] })),
    ...comments.map((c) => deletionUnit(c, 'references')),
    // Page messages were never counted (docs/alerts.md, "Notifications"), so only the message and its alias go.
    ...outboxes.filter((o) => o.type === 'OUTBOX' && o.accountId === alert.accountId).map((o) => ({ writes: [deleteAny(o), aliasDelete(o)] })),
  ];
  for (const batch of batchUnits(units)) await transact(batch);
  await releaseClaims(alert);
}

// Views of one alert ---------------------------------------------------------------------------------------------

export async function alertLogs(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  return (await logsOf(accountId, alert.id)).map(({ pk: _pk, sk: _sk, type: _type, accountId: _a, alertId: _id, ...entry }) => ({ ...entry, alert_id: alert.id }));
}

export async function alertNotifications(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  return (await notificationsOf(accountId, alert.id)).map((n) => ({
    id: n.id,
    alert_id: alert.id,
    account_user_id: n.account_user_id,
    channel: n.channel,
    type: n.notification_type,
    status: n.status,
    layer: n.layer,
    pass: n.pass,
    outbox_id: n.outbox_id,
    reason: n.reason,
    created_at: n.created_at,
    sent_at: n.sent_at,
    attempts: n.attempts ?? 0,
    provider: n.provider ?? null,
    provider_message_id: n.provider_message_id ?? null,
    error: n.error ?? null,
    next_attempt_at: n.next_attempt_at ?? null,
    delivered_at: n.delivered_at ?? null,
  }));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A destination's escalation as a workflow row: open while it pages (or hands on), then how it ended. */
function escalationRow(alert: AlertItem, e: Escalation): Record<string, unknown> {
  const people = alert.escalation.workflows.filter((w) => w.escalation === e.index);
  const ended = e.phase !== 'waiting' && e.phase !== 'reassigning';
  const lastClosed = people.reduce<number | null>((latest, w) => (w.closed_at !== null && (latest === null || w.closed_at > latest) ? w.closed_at : latest), null);
  const status = !ended ? 'open' : e.phase === 'stopped' ? (e.ended_reason === 'acknowledged' ? 'acknowledged' : 'closed') : e.phase === 'exhausted' ? 'timed_out' : 'closed';
  return {
    id: `${alert.id}-E${e.index}`,
    alert_id: alert.id,
    kind: e.destination.kind,
    escalation: e.index,
    team_id: e.destination.kind === 'team' ? e.destination.team_id : null,
    account_user_id: e.destination.kind === 'account_user' ? e.destination.account_user_id : null,
    reassigned_from: e.reassigned_from,
    layer: e.layer,
    pass: e.pass,
    status,
    phase: e.phase,
    ended_reason: e.ended_reason,
    started_at: iso(e.started_at),
    deadline_at: iso(e.deadline_at),
    closed_at: ended ? iso(lastClosed ?? e.started_at) : null,
  };
}

function personRow(alert: AlertItem, w: PersonWorkflow, index: number): Record<string, unknown> {
  const destination = alert.escalation.escalations[w.escalation]?.destination;
  return {
    id: `${alert.id}-W${index}`,
    alert_id: alert.id,
    kind: 'account_user',
    escalation: w.escalation,
    team_id: destination?.kind === 'team' ? destination.team_id : null,
    account_user_id: w.account_user_id,
    reassigned_from: null,
    layer: w.layer,
    pass: w.pass,
    status: w.status,
    phase: null,
    ended_reason: null,
    started_at: iso(w.started_at),
    deadline_at: iso(w.deadline_at),
    closed_at: iso(w.closed_at),
  };
}

/**
 * GET /alerts/:id/workflows: one row per destination escalation whose destination is a team (kind `team`), and one
 * per person paged on a layer of a pass (kind `account_user`; a direct page is one of these), in the order started.
 */
export async function alertWorkflows(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  const teams = alert.escalation.escalations.filter((e) => e.destination.kind === 'team').map((e) => escalationRow(alert, e));
  const people = alert.escalation.workflows.map((w, i) => personRow(alert, w, i));
  return [...teams, ...people];
}
