// Opsgenie's heartbeat admin calls on Hark's heartbeat integrations (docs/migrating.md, "From Opsgenie"): create,
// list, read, change, delete, enable and disable by name, for the key of an opsgenie integration whose option
// `allow_heartbeat_admin` is true. A heartbeat made here pages the opsgenie integration's destinations (or the owner
// team named). Answered at once, in Opsgenie's shapes: these change configuration, not alerts.
import { nowMs } from '../../clock.ts';
import { findEntity, type EntityItem } from '../../db/repository.ts';
import { isDomainError } from '../../errors.ts';
import type { IntegrationLookupItem } from '../../integrations/lookup.ts';
import { integrationCreate, integrationUpdate, type IntegrationData } from '../../integrations/schema.ts';
import { createIntegration, deleteIntegration, updateIntegration } from '../../integrations/service.ts';
import { HEARTBEAT_MAX_INTERVAL_SECONDS, HEARTBEAT_MIN_INTERVAL_SECONDS } from '../../limits.ts';
import { isJsonObject } from '../../monitor-readers/wrapper-key.ts';
import { findHeartbeatState } from '../heartbeat/state.ts';
import { monitorTypeState } from '../monitor-state.ts';
import { resolveResponders } from '../responders.ts';
import { heartbeatsNamed, HEARTBEAT_TYPE } from './heartbeats.ts';
import { answerOf, OpsgenieError, unprocessable, type OpsgenieAnswer } from './shapes.ts';

const UNIT_SECONDS: Readonly<Record<string, number>> = { minutes: 60, hours: 3600, days: 86_400 };

/** Opsgenie's interval and unit as Hark's interval_seconds; a unit of the three only, within Hark's bounds. */
export function intervalSeconds(interval: unknown, unit: unknown, errors: Record<string, string>): number | undefined {
  if (typeof unit !== 'string' || !Object.hasOwn(UNIT_SECONDS, unit)) {
    errors.intervalUnit = 'intervalUnit must be one of minutes, hours, days.';
    return undefined;
  }
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1) {
    errors.interval = 'interval must be a whole number of at least 1.';
    return undefined;
  }
  const seconds = interval * UNIT_SECONDS[unit]!;
  if (seconds < HEARTBEAT_MIN_INTERVAL_SECONDS || seconds > HEARTBEAT_MAX_INTERVAL_SECONDS) {
    errors.interval = `interval must be from ${HEARTBEAT_MIN_INTERVAL_SECONDS / 60} minute to ${HEARTBEAT_MAX_INTERVAL_SECONDS / 86_400} days.`;
    return undefined;
  }
  return seconds;
}

/** interval_seconds back in Opsgenie's words: the largest unit that divides it. */
export function opsgenieInterval(seconds: number): { interval: number; intervalUnit: string } {
  for (const unit of ['days', 'hours', 'minutes']) if (seconds % UNIT_SECONDS[unit]! === 0) return { interval: seconds / UNIT_SECONDS[unit]!, intervalUnit: unit };
  return { interval: Math.ceil(seconds / 60), intervalUnit: 'minutes' };
}

type Heartbeat = EntityItem<IntegrationData>;

async function heartbeatView(item: Heartbeat): Promise<Record<string, unknown>> {
  const state = await findHeartbeatState(item.accountId, item.id);
  const seconds = Number(item.data.options.interval_seconds ?? 3600);
  const due = item.data.enabled ? state?.nextDueAt : undefined;
  return {
    name: item.data.name,
    description: typeof item.meta?.description === 'string' ? item.meta.description : '',
    ...opsgenieInterval(seconds),
    enabled: item.data.enabled,
    expired: due !== undefined && Date.parse(due) < nowMs(),
    ...(state?.lastPingAt ? { lastPingTime: state.lastPingAt } : {}),
    ownerTeam: item.data.team_ids[0] ? { id: item.data.team_ids[0] } : {},
    hark: { id: item.id, prefix_id: item.prefixId },
  };
}

/** The one heartbeat integration of the name: 404 none, 409 two (as a ping by that name is). */
async function theHeartbeat(accountId: string, name: string): Promise<Heartbeat> {
  const named = await heartbeatsNamed(accountId, name);
  if (named.length === 0) throw new OpsgenieError(404, `Heartbeat with name [${name}] does not exist.`);
  if (named.length > 1) throw new OpsgenieError(409, `Heartbeat name [${name}] is used by ${named.length} heartbeat integrations of this account`);
  return named[0]!;
}

/** The owner team named (`{id}` or `{name}`), as responders are; undefined when none is named. */
async function ownerTeamIds(accountId: string, owner: unknown, errors: Record<string, string>): Promise<string[] | undefined> {
  if (owner === undefined || owner === null) return undefined;
  const ref = isJsonObject(owner) ? owner : {};
  const id = typeof ref.id === 'string' ? ref.id : undefined;
  const name = typeof ref.name === 'string' ? ref.name : undefined;
  const found = await resolveResponders(accountId, [{ type: 'team', ...(id ? { id } : {}), ...(name ? { name } : {}) }]);
  if (found.team_ids.length === 0) errors.ownerTeam = 'ownerTeam names no team of this account.';
  return found.team_ids;
}

/** A service refusal in Opsgenie's words. */
async function asOpsgenie<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error, 'invalid') || isDomainError(error, 'limit_exceeded')) throw new OpsgenieError(422, error.messages.join('; '));
    if (isDomainError(error, 'conflict')) throw new OpsgenieError(409, error.messages.join('; '));
    if (isDomainError(error, 'not_found')) throw new OpsgenieError(404, error.messages.join('; '));
    throw error;
  }
}

/** `segments` after `/v2/heartbeats`: [] the collection, [name], or [name, enable|disable]. */
export async function heartbeatAdmin(
  opsgenie: IntegrationLookupItem,
  method: string,
  segments: readonly string[],
  body: Record<string, unknown>,
  took: () => number,
  requestId: string,
): Promise<OpsgenieAnswer> {
  const owner = await findEntity<IntegrationData>('INTEGRATION', opsgenie.accountId, opsgenie.integrationId);
  if (owner?.data.options.allow_heartbeat_admin !== true) {
    throw new OpsgenieError(403, 'This integration may not manage heartbeats: set its option allow_heartbeat_admin to true');
  }
  const { accountId } = opsgenie;
  const [name, action] = segments;
  const answer = (status: number, value: Record<string, unknown>) => answerOf(status, value, took(), requestId);
  if (name === undefined) {
    if (method === 'GET') {
      const all = (await heartbeatsNamedAll(accountId)).map(heartbeatView);
      return answer(200, { data: { heartbeats: await Promise.all(all) } });
    }
    return answer(201, { result: 'Created', data: await createHeartbeat(owner, body) });
  }
  const heartbeat = await theHeartbeat(accountId, name);
  if (action === 'enable' || action === 'disable') {
    const changed = await asOpsgenie(() => updateIntegration(accountId, heartbeat.id, integrationUpdate.parse({ enabled: action === 'enable' }), monitorTypeState));
    return answer(200, { result: action === 'enable' ? 'Enabled' : 'Disabled', data: { name: changed.data.name, enabled: changed.data.enabled } });
  }
  if (method === 'GET') return answer(200, { data: await heartbeatView(heartbeat) });
  if (method === 'DELETE') {
    await asOpsgenie(() => deleteIntegration(accountId, heartbeat.id));
    return answer(200, { result: 'Deleted' });
  }
  return answer(200, { result: 'Updated', data: await changeHeartbeat(heartbeat, body) });
}

const heartbeatsNamedAll = async (accountId: string) => (await heartbeatsNamed(accountId, null)).sort((a, b) => a.data.name.localeCompare(b.data.name));

async function createHeartbeat(owner: EntityItem<IntegrationData>, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const errors: Record<string, string> = {};
  const name = typeof body.name === 'string' && body.name.trim() !== '' ? body.name.trim() : undefined;
  if (!name) errors.name = 'Name can not be empty.';
  const seconds = intervalSeconds(body.interval, body.intervalUnit, errors);
  if (typeof body.enabled !== 'boolean') errors.enabled = 'enabled must be true or false.';
  const teams = await ownerTeamIds(owner.accountId, body.ownerTeam, errors);
  if (Object.keys(errors).length) throw unprocessable(errors);
  if ((await heartbeatsNamed(owner.accountId, name!)).length) throw new OpsgenieError(409, `Heartbeat with name [${name}] already exists.`);
  const input = integrationCreate.parse({
    name,
    integration_type_id: HEARTBEAT_TYPE,
    enabled: body.enabled,
    options: { interval_seconds: seconds },
    team_ids: teams ?? owner.data.team_ids,
    router_ids: teams ? [] : owner.data.router_ids,
    account_user_ids: teams ? [] : owner.data.account_user_ids,
    meta: typeof body.description === 'string' ? { description: body.description } : {},
  });
  const item = await asOpsgenie(() => createIntegration(owner.accountId, input));
  return { name: item.data.name, enabled: item.data.enabled, expired: false };
}

async function changeHeartbeat(heartbeat: Heartbeat, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const errors: Record<string, string> = {};
  const seconds = body.interval !== undefined || body.intervalUnit !== undefined ? intervalSeconds(body.interval, body.intervalUnit ?? opsgenieInterval(Number(heartbeat.data.options.interval_seconds ?? 3600)).intervalUnit, errors) : undefined;
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') errors.enabled = 'enabled must be true or false.';
  const teams = await ownerTeamIds(heartbeat.accountId, body.ownerTeam, errors);
  if (Object.keys(errors).length) throw unprocessable(errors);
  const input = integrationUpdate.parse({
    ...(typeof body.enabled === 'boolean' ? { enabled: body.enabled } : {}),
    ...(seconds !== undefined ? { options: { interval_seconds: seconds } } : {}),
    ...(teams ? { team_ids: teams, router_ids: [], account_user_ids: [] } : {}),
    ...(typeof body.description === 'string' ? { meta: { ...heartbeat.meta, description: body.description } } : {}),
  });
  const changed = await asOpsgenie(() => updateIntegration(heartbeat.accountId, heartbeat.id, input, monitorTypeState));
  return { name: changed.data.name, enabled: changed.data.enabled, expired: false };
}
