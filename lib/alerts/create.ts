// Creating an alert: POST /alerts and other sources (an integration's webhook), routed synchronously and stored in one
// transaction (docs/alerts.md, "The alert resource" and "Other sources"); the storing itself is create-store.ts.
import { nowMs } from '../clock.ts';
import { timeScale } from '../config.ts';
import { alertKey, type EntityType } from '../db/keys.ts';
import { resolveIdList } from '../db/references.ts';
import { nextTinyId, type EntityItem } from '../db/repository.ts';
import { cachedEntity } from '../db/config-reads.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { type TransactItem } from '../db/writes.ts';
import { transact } from '../db/items.ts';
import { invalid } from '../errors.ts';
import { newAlertEscalation } from '../escalation-engine/index.ts';
import { newId, newPrefixId } from '../ids.ts';
import { claimWrites, duplicateWrites, lookUpDedupKeys } from './dedup.ts';
import type { TeamData } from '../teams/schema.ts';
import { type AlertItem, type LogEntry } from './items.ts';
import { hasDestination, NO_DESTINATION, tagsOf, type AlertCreateInput, type AlertData } from './schema.ts';
import { findAlert, getAlertItem, newestOfIdentityWrite } from './store.ts';
import { createDirect, createThroughRouters, type PendingAlert } from './create-store.ts';
import type { AlertActor } from './schema.ts';

async function resolveDestinations(accountId: string, input: AlertCreateInput): Promise<DestinationIds> {
  const lists: [EntityType, string, string, string[] | undefined][] = [
    ['TEAM', 'destination_team_ids', 'team', input.destination_team_ids],
    ['ROUTER', 'destination_router_ids', 'router', input.destination_router_ids],
    ['ACCOUNT_USER', 'destination_account_user_ids', 'account user', input.destination_account_user_ids],
  ];
  // From the short configuration cache, as the routing reads that follow (docs/alerts.md, "Configuration reads in a storm").
  const [teams, routers, users] = await Promise.all(lists.map(([type, field, noun, ids]) => resolveIdList(type, accountId, field, noun, ids ?? [], cachedEntity)));
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
  /**
   * Runs after an attempt lost its race, before the next: may throw the caller's own answer (the webhook worker's
   * mark failed because its request log is there already, which no later attempt can change).
   */
  afterLostRace?: () => Promise<void>;
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
  const found = await Promise.all(unique.map((id) => cachedEntity(type, accountId, id)));
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
  { alertId, absentChecked = false, markStored = () => [], afterLostRace }: AlertFromOptions = {},
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
        tinyId = nextTinyId(accountId, 'ALERT');
        tinyId.catch(() => undefined); // awaited by the store below; this only keeps an early failure from going unhandled
      }
      const pending: PendingAlert = {
        queued,
        tinyId,
        knownTeams: destinationIds.teamItems ?? new Map(),
        knownAccountUsers: new Set(destinationIds.accountUserIds),
        // An integration's new alert also becomes the newest of its identity: the key item its next event reads.
        markStored: (alert) => [...markStored({ alert, outcome: 'created' }), ...newestOfIdentityWrite(alert)],
      };
      const claims = claimWrites(queued, dedup.staleClaims);
      const alert =
        destinationIds.routerIds.length > 0 ? await createThroughRouters(pending, destinationIds, logs, now, claims) : await createDirect(pending, destinationIds, logs, now, claims);
      return { alert, outcome: 'created' };
    },
    { exhausted: changedMeanwhile('Alert'), ...(afterLostRace ? { afterLostRace } : {}) },
  );
}
