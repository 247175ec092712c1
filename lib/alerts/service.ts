// The alert resource: create (routed synchronously), read, update, delete, the actions and the per-alert views.
// Storage: lib/alerts/store.ts; escalation: lib/alerts/runner.ts. Choices: docs/alerts.md, "The alert resource".
import { nowMs } from '../clock.ts';
import { timeScale } from '../config.ts';
import { incrementCounter } from '../db/items.ts';
import { commentsOfParentGsi } from '../comments/schema.ts';
import { alertKey, alertPk, type EntityType } from '../db/keys.ts';
import { resolveIdList } from '../db/references.ts';
import { listByIndex, render, type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { batchUnits, counterKey, deleteAny, deletionUnit, putNew, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { transact } from '../db/items.ts';
import { invalid } from '../errors.ts';
import { newAlertEscalation, type Destination, type Escalation, type PersonWorkflow } from '../escalation-engine/index.ts';
import { newId, newPrefixId } from '../ids.ts';
import { sendWakeUps, timerPutItems } from '../timers/index.ts';
import { delayedStartLog, delayedStartTimers, delayGroups } from './delayed.ts';
import { accountUserDestinations, loadSchedules, scheduleIdsOf, teamDestinations } from './destinations.ts';
import { effectWrites, nextId } from './effects.ts';
import { alertCountChanges, alertCreateWrites, alertIndexKeys, aliasOf, logItem, type AlertItem, type LogEntry } from './items.ts';
import { findParent, fingerprintItem, parentCountWrite, routeThroughRouters } from './routing.ts';
import { withRoutingChanges, type RoutedReceiver } from '../routing/index.ts';
import { advance, applyToAlert, schedulesOfState, withState } from './runner.ts';
import { hasDestination, NO_DESTINATION, tagsOf, type AlertCreateInput, type AlertData, type AlertUpdateInput } from './schema.ts';
import { commitAlert, getAlertItem, logsOf, notificationsOf, partitionOf, transactAlert } from './store.ts';

/** Who creates or acts on an alert through the API. */
export interface AlertActor {
  accountId: string;
  accountUserId: string;
}

/** The API object: common attributes and the alert's fields (the escalation state is shown by /workflows). */
export const renderAlert = (item: AlertItem): Record<string, unknown> => render(item);

export const getAlert = getAlertItem;

async function resolveDestinations(accountId: string, input: AlertCreateInput) {
  const lists: [EntityType, string, string, string[] | undefined][] = [
    ['TEAM', 'destination_team_ids', 'team', input.destination_team_ids],
    ['ROUTER', 'destination_router_ids', 'router', input.destination_router_ids],
    ['ACCOUNT_USER', 'destination_account_user_ids', 'account user', input.destination_account_user_ids],
  ];
  const [teams, routers, users] = await Promise.all(lists.map(([type, field, noun, ids]) => resolveIdList(type, accountId, field, noun, ids ?? [])));
  const problems = [...teams!.problems, ...routers!.problems, ...users!.problems];
  if (problems.length > 0) throw invalid(problems);
  return { teamIds: teams!.ids, routerIds: routers!.ids, accountUserIds: users!.ids };
}

/**
 * POST /alerts: validates the destinations (each must exist: 422 naming the unknown id), stores the alert already
 * routed — its escalations started, first pages queued, timers stored — in one transaction, then sends the
 * timers' wake-ups. The answer shows `open`, `dropped` (nobody to page) or, through a router, `suppressed`.
 */
export async function createAlert(actor: AlertActor, input: AlertCreateInput): Promise<AlertItem> {
  if (!hasDestination(input)) throw invalid(NO_DESTINATION);
  const { accountId } = actor;
  const destinationIds = await resolveDestinations(accountId, input);
  const scale = timeScale();
  const id = newId();
  const tinyId = await incrementCounter(counterKey(accountId, 'ALERT'), 'lastTinyId');
  const now = nowMs();
  const createdAt = new Date(now).toISOString();
  const state = newAlertEscalation(scale);
  const data: AlertData = {
    title: input.title,
    description: input.description ?? null,
    urgency: input.urgency,
    status: state.status,
    tag_list: tagsOf(input) ?? [],
    source_type: 'AccountUser',
    source_id: actor.accountUserId,
    source_log_id: null,
    thirdparty_id: null,
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
    tinyId,
    version: 0,
    createdAt,
    updatedAt: createdAt,
    meta: input.meta ?? {},
    data,
    escalation: state,
  };

  const created: LogEntry = { event: 'created', message: `Alert created by account user ${actor.accountUserId}.`, account_user_id: actor.accountUserId };
  const alert = await retryOnConflict(
    () => (destinationIds.routerIds.length > 0 ? createThroughRouters(queued, destinationIds, created, now) : createDirect(queued, destinationIds, [created], now)),
    { exhausted: changedMeanwhile('Alert') },
  );
  return alert;
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
  queued: AlertItem,
  teamIds: readonly string[],
  accountUserIds: readonly string[],
  logs: LogEntry[],
  now: number,
  extra: TransactItem[] = [],
  delayed: readonly RoutedReceiver[] = [],
): Promise<AlertItem> {
  const { accountId } = queued;
  const destinations: Destination[] = [...(await teamDestinations(accountId, teamIds)), ...(await accountUserDestinations(accountId, accountUserIds))];
  const schedules = await loadSchedules(accountId, scheduleIdsOf(destinations));
  const groups = delayGroups(delayed);
  const result = await advance(accountId, queued.escalation, { type: 'start', destinations, schedules, delayedStarts: groups.length }, now);
  if (!result.ok) throw new Error(result.message);
  const alert = { ...withState(queued, result.state, now), updatedAt: queued.createdAt };
  const delayedTimers = delayedStartTimers(alert, groups, now);
  const delayedLogs = groups.flatMap((group, i) => group.map((receiver) => delayedStartLog(receiver, delayedTimers[i]!)));
  const created = [...alertCreateWrites(alert), ...timerPutItems(alertPk(accountId, alert.id), delayedTimers, new Date(now).toISOString())];
  const planned = await effectWrites(alert, result.effects, now, [...logs, ...destinations.map(routedLog), ...delayedLogs], created.length + extra.length);
  await transactAlert([...created, ...planned.writes, ...extra]);
  await sendWakeUps([...delayedTimers, ...planned.timers]);
  return alert;
}

const createDirect = (queued: AlertItem, ids: { teamIds: string[]; accountUserIds: string[] }, logs: LogEntry[], now: number) =>
  startAndStore(queued, ids.teamIds, ids.accountUserIds, logs, now);

/**
 * An alert with router destinations: the routers' outcome decides its fields (setval, incident), its
 * stakeholders and its receivers; an aggregate with a parent makes it that parent's suppressed child; an ignore
 * with nobody else to page suppresses it (docs/alerts.md, "Router destinations").
 */
async function createThroughRouters(
  queued: AlertItem,
  ids: { teamIds: string[]; routerIds: string[]; accountUserIds: string[] },
  created: LogEntry,
  now: number,
): Promise<AlertItem> {
  const { accountId } = queued;
  const routingAlert = { ...queued.data, meta: queued.meta };
  const outcome = await routeThroughRouters(accountId, routingAlert, { router_ids: ids.routerIds, team_ids: ids.teamIds, account_user_ids: ids.accountUserIds }, new Date(now));
  const changed = withRoutingChanges(routingAlert, outcome.changes);
  const { meta, ...fields } = changed;
  const alert: AlertItem = {
    ...queued,
    meta: { ...meta },
    data: { ...queued.data, ...fields, tag_list: [...fields.tag_list], description: fields.description ?? null, stakeholder_ids: [...outcome.stakeholder_ids] },
  };
  const logs: LogEntry[] = [
    created,
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
    await transactAlert([...alertCreateWrites(child), ...writes, parentCountWrite(parent.parent, at), putNew(parentLog)]);
    return child;
  }

  const fingerprints = outcome.aggregates.map((decision) => putNew(fingerprintItem(alert, decision)));
  const startNow = outcome.receivers.filter((r) => r.delay_ms === 0);
  const delayed = outcome.receivers.filter((r) => r.delay_ms > 0);
  const teams = startNow.filter((r) => r.kind === 'team').map((r) => r.id);
  const people = startNow.filter((r) => r.kind === 'account_user').map((r) => r.id);
  if (outcome.receivers.length === 0 && outcome.status === 'suppressed') {
    const suppressed: AlertItem = withState(alert, { ...alert.escalation, status: 'suppressed' }, now);
    const stored = { ...suppressed, updatedAt: at };
    const { writes } = await effectWrites(stored, [], now, logs);
    await transactAlert([...alertCreateWrites(stored), ...writes, ...fingerprints]);
    return stored;
  }
  return startAndStore(alert, teams, people, logs, now, fingerprints, delayed);
}

const CHANGED_FIELDS = ['title', 'description', 'urgency', 'tag_list', 'meta', 'dedup_keys', 'additional_data'] as const;

/** PUT /alerts/:id: the editable fields; status changes only through the actions. Logs `updated` naming the fields. */
export async function updateAlert(actor: AlertActor, idOrPrefixId: string, input: AlertUpdateInput): Promise<AlertItem> {
  return retryOnConflict(
    async () => {
      const current = await getAlertItem(actor.accountId, idOrPrefixId);
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
      if (changed.length === 0) return current;
      const { writes } = await effectWrites(next, [], now, [
        { event: 'updated', message: `Alert updated by account user ${actor.accountUserId}: ${changed.join(', ')}.`, account_user_id: actor.accountUserId },
      ]);
      await commitAlert(current, next, writes);
      return next;
    },
    { exhausted: changedMeanwhile('Alert') },
  );
}

export const acknowledgeAlert = (actor: AlertActor, id: string) => applyToAlert(actor.accountId, id, () => ({ type: 'acknowledge', by: actor.accountUserId }));
export const resolveAlert = (actor: AlertActor, id: string) => applyToAlert(actor.accountId, id, () => ({ type: 'resolve', by: actor.accountUserId }));
export const rejectAlert = (actor: AlertActor, id: string) =>
  applyToAlert(actor.accountId, id, async (alert) => ({ type: 'reject', by: actor.accountUserId, schedules: await schedulesOfState(actor.accountId, alert.escalation) }));

/** The gsi1 collection of an alert's comments (as lib/comments stores them). */
const alertCommentsGsi = (accountId: string, alertId: string) => commentsOfParentGsi(accountId, { type: 'Alert', id: alertId });

/**
 * DELETE /alerts/:id: first the alert item (only as read: a concurrent change makes it read again), its alias and
 * its counts in one transaction, so it leaves every list at once; then the rest of its partition (logs,
 * notification records, team index items, timers) and its comments, in transactions of at most 100 writes. A
 * crash between them leaves only unreachable items, which a repeated delete cannot reach either; a timer left
 * behind finds no alert and does nothing.
 */
export async function deleteAlert(actor: AlertActor, idOrPrefixId: string): Promise<void> {
  const alert = await retryOnConflict(
    async () => {
      const current = await getAlertItem(actor.accountId, idOrPrefixId);
      const teams = current.data.destination_team_ids;
      const first: TransactItem[] = [
        { Delete: { Key: { pk: current.pk, sk: current.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } } },
        deleteAny(aliasOf(current)),
        ...alertCountChanges(current.accountId, {
          all: -1,
          statuses: { [current.escalation.status]: -1 },
          teams: Object.fromEntries(teams.map((t) => [t, -1])),
        }),
      ];
      await transact(first);
      return current;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Alert') },
  );
  const [children, comments] = await Promise.all([
    partitionOf(alert.accountId, alert.id),
    listByIndex<EntityItem<unknown>>(alertCommentsGsi(alert.accountId, alert.id)),
  ]);
  const units: WriteUnit[] = [
    ...children.filter((item) => item.sk !== alert.sk).map((item) => ({ writes: [deleteAny(item)] })),
    ...comments.filter((c) => c.type === 'COMMENT' && c.accountId === alert.accountId).map((c) => deletionUnit(c, 'references')),
  ];
  for (const batch of batchUnits(units)) await transact(batch);
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
