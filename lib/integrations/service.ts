// Integrations: where alerts come from (the inbound webhook) and where they go (account users, routers,
// teams). Every write also rewrites the integration's global lookup items in the same transaction, so the
// webhook's one GetItem always sees the current enabled flag and token.

import {
  createEntities,
  getEntity,
  listEntities,
  newEntityItem,
  putNewVersion,
  removeEntity,
  renderCommon,
  touchItem,
  type EntityItem,
  type TransactItem,
} from '../db/repository.ts';
import { resolveIdList } from '../db/references.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { TRANSACTION_ITEMS } from '../db/writes.ts';
import { conflict, invalid } from '../errors.ts';
import { hashSecret } from '../ids.ts';
import { detachIntegrationItems, windowsOfIntegration } from '../maintenance/service.ts';
import { typeFieldsOf, type IntegrationTypeState } from './type-state.ts';
import { forgetIntegrationLookups, lookupCreates, lookupDeletes, lookupUpdates } from './lookup.ts';
import { newSenderKey, senderKeyOf, senderKeyOptionOf } from './sender-key.ts';
import {
  INTEGRATION_TYPES,
  MAX_DESTINATIONS,
  integrationTypeOf,
  isSecretOption,
  optionsChangeOf,
  typeOptionsChange,
  typeOptionsOf,
  type IntegrationCreateInput,
  type IntegrationData,
  type IntegrationUpdateInput,
  type StoredOptions,
} from './schema.ts';
import { entityCollection } from '../db/pages.ts';
import { hideFields } from '../list-engine/index.ts';

export type IntegrationItem = EntityItem<IntegrationData>;

/** The path the webhook of an integration is served at (prefixed by the deployment's base URL). */
export const inboundUrlPath = (prefixId: string) => `/integration/${prefixId}`;

/** Who reads an integration: a sender key (PagerDuty's routing_key) is shown to the account's admins only. */
export interface IntegrationViewer {
  admin: boolean;
}

/** The API object: the token never leaves the service, only whether one is set; a sender key only to admins. */
export function renderIntegration(item: IntegrationItem, viewer: IntegrationViewer): Record<string, unknown> {
  const { meta, created_at, updated_at, ...ids } = renderCommon(item);
  const d = item.data;
  return hideFields({
    ...ids,
    name: d.name,
    enabled: d.enabled,
    urgency: d.urgency,
    // Shown from the type registry, so a type's description stays current for integrations made long ago.
    integration_type: { ...(INTEGRATION_TYPES[d.integration_type.id] ?? d.integration_type) },
    options: {
      has_token: d.options.token_hash !== null,
      capture_additional_data: d.options.capture_additional_data,
      wrapper_key: d.options.wrapper_key,
      ...renderTypeOptions(typeOptionsOf(d.options)),
      ...renderSenderKey(item, viewer),
    },
    account_user_ids: d.account_user_ids,
    router_ids: d.router_ids,
    team_ids: d.team_ids,
    inbound_url_path: inboundUrlPath(item.prefixId),
    ...typeFieldsOf(item),
    meta,
    created_at,
    updated_at,
  }, hiddenSenderKey(item, viewer));
}

/** A member's list filters, sorts and `q` treat the sender key as absent, so none finds an integration by it (docs/lists.md). */
function hiddenSenderKey(item: IntegrationItem, viewer: IntegrationViewer): string[] {
  const option = senderKeyOptionOf(item.data.integration_type.id);
  return option !== undefined && !viewer.admin ? [`options.${option}`] : [];
}

/** An admin sees the sender key (senders must be configured with it, as with the URL); a member sees nothing of it. */
function renderSenderKey(item: IntegrationItem, viewer: IntegrationViewer): Record<string, unknown> {
  const option = senderKeyOptionOf(item.data.integration_type.id);
  const key = senderKeyOf(item.data.integration_type.id, item.data.options);
  return option !== undefined && key !== undefined && viewer.admin ? { [option]: key } : {};
}

/** A type's own options as shown: secrets only as `has_<name>` (docs/integrations.md, "Type options"). */
function renderTypeOptions(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => (isSecretOption(key) ? [`has_${key}`, value !== undefined && value !== null] : [key, value])));
}

export const getIntegration = (accountId: string, id: string) => getEntity<IntegrationData>('INTEGRATION', accountId, id);
export const listIntegrations = (accountId: string) => listEntities<IntegrationData>('INTEGRATION', accountId);
export const integrationListSource = (accountId: string, viewer: IntegrationViewer) =>
  entityCollection('INTEGRATION', accountId, (items: IntegrationItem[]) => items.map((item) => renderIntegration(item, viewer)));

interface Destinations {
  account_user_ids: readonly string[];
  router_ids: readonly string[];
  team_ids: readonly string[];
}

/** Resolves the three destination lists to canonical ids; at least one destination in total. */
async function resolveDestinations(accountId: string, wanted: Destinations) {
  const [users, routers, teams] = await Promise.all([
    resolveIdList('ACCOUNT_USER', accountId, 'account_user_ids', 'account user', wanted.account_user_ids),
    resolveIdList('ROUTER', accountId, 'router_ids', 'router', wanted.router_ids),
    resolveIdList('TEAM', accountId, 'team_ids', 'team', wanted.team_ids),
  ]);
  const problems = [...users.problems, ...routers.problems, ...teams.problems];
  const total = new Set([...wanted.account_user_ids, ...wanted.router_ids, ...wanted.team_ids]).size;
  if (total === 0) problems.push('account_user_ids, router_ids or team_ids must name at least one destination');
  const resolved = users.ids.length + routers.ids.length + teams.ids.length;
  if (resolved > MAX_DESTINATIONS) problems.push(`account_user_ids, router_ids and team_ids may name at most ${MAX_DESTINATIONS} destinations together`);
  return {
    ids: { account_user_ids: users.ids, router_ids: routers.ids, team_ids: teams.ids },
    // Touched in the write's transaction, so a destination deleted meanwhile fails the write (and the delete
    // of a destination racing this write fails on its version), never leaving a dangling id.
    touches: [...users.items, ...routers.items, ...teams.items].map((target) => touchItem(target)),
    problems,
  };
}

/** A type whose senders authenticate with a generated key takes no webhook token: the key is the credential. */
function tokenProblems(typeId: string, change: ReturnType<typeof optionsChangeOf>['change']): string[] {
  const option = senderKeyOptionOf(typeId);
  return option !== undefined && typeof change.token === 'string' ? [`options.token is not taken by ${typeId} integrations: their senders authenticate with options.${option}`] : [];
}

/** The stored sender key: kept as it is, made on create for a type that has one (docs/integrations.md, "Sender keys"). */
function senderKeyOptions(typeId: string, current: StoredOptions | undefined): Record<string, string> {
  const option = senderKeyOptionOf(typeId);
  if (option === undefined) return {};
  return { [option]: senderKeyOf(typeId, current) ?? newSenderKey() };
}

function nextOptions(
  typeId: string,
  current: StoredOptions | undefined,
  change: ReturnType<typeof optionsChangeOf>['change'],
  typeOptions: Record<string, unknown>,
): StoredOptions {
  return {
    ...typeOptions,
    ...senderKeyOptions(typeId, current),
    token_hash: change.token === undefined ? (current?.token_hash ?? null) : change.token === null ? null : hashSecret(change.token),
    capture_additional_data: change.capture_additional_data ?? current?.capture_additional_data ?? false,
    wrapper_key: change.wrapper_key === undefined ? (current?.wrapper_key ?? null) : change.wrapper_key,
  };
}

export async function createIntegration(accountId: string, input: IntegrationCreateInput): Promise<IntegrationItem> {
  const options = optionsChangeOf(input);
  const type = integrationTypeOf(input);
  const destinations = await resolveDestinations(accountId, {
    account_user_ids: input.account_user_ids ?? [],
    router_ids: input.router_ids ?? [],
    team_ids: input.team_ids ?? [],
  });
  const integrationType = type.type ?? INTEGRATION_TYPES.webhook!;
  const typeOptions = typeOptionsChange(integrationType.id, input.options, {});
  const problems = [...type.problems, ...options.problems, ...tokenProblems(integrationType.id, options.change), ...typeOptions.problems, ...destinations.problems];
  if (problems.length) throw invalid(problems);
  const data: IntegrationData = {
    name: input.name,
    enabled: input.enabled ?? true,
    urgency: input.urgency ?? 'high',
    integration_type: integrationType,
    options: nextOptions(integrationType.id, undefined, options.change, typeOptions.options),
    ...destinations.ids,
  };
  const item = await newEntityItem<IntegrationData>('INTEGRATION', accountId, data, { meta: input.meta ?? {} });
  await createEntities([item as EntityItem<unknown>], [...lookupCreates(item), ...destinations.touches]);
  return item;
}

/**
 * Partial update: only the parameters sent change. The lookup items are rewritten in the same transaction
 * as the new version, so disabling an integration or changing its token takes effect on the next request in
 * this process, and within LOOKUP_CACHE_TTL_MS in others (the webhook caches lookups). The type's state writes that ride
 * with the change (a heartbeat disarmed by its disable) come from ingest through `typeState` (./type-state.ts).
 */
export async function updateIntegration(accountId: string, id: string, input: IntegrationUpdateInput, typeState: IntegrationTypeState): Promise<IntegrationItem> {
  return retryOnConflict(async () => {
    const current = await getIntegration(accountId, id);
    const options = optionsChangeOf(input);
    const type = integrationTypeOf(input);
    const destinations = await resolveDestinations(accountId, {
      account_user_ids: input.account_user_ids ?? current.data.account_user_ids,
      router_ids: input.router_ids ?? current.data.router_ids,
      team_ids: input.team_ids ?? current.data.team_ids,
    });
    const currentType = current.data.integration_type;
    // A type reads its own payloads and options: changing it would strand both, so another integration is the way.
    if (type.type && type.type.id !== currentType.id) {
      type.problems.push(`integration_type_id cannot be changed (this integration is ${currentType.id}); create another integration of type ${type.type.id}`);
    }
    const typeOptions = typeOptionsChange(currentType.id, input.options, typeOptionsOf(current.data.options), senderKeyOf(currentType.id, current.data.options));
    const problems = [...type.problems, ...options.problems, ...tokenProblems(currentType.id, options.change), ...typeOptions.problems, ...destinations.problems];
    if (problems.length) throw invalid(problems);
    const data: IntegrationData = {
      name: input.name ?? current.data.name,
      enabled: input.enabled ?? current.data.enabled,
      urgency: input.urgency ?? current.data.urgency,
      integration_type: currentType,
      options: nextOptions(currentType.id, current.data.options, options.change, typeOptions.options),
      ...destinations.ids,
    };
    const disarm = await typeState.changeWrites(current, data);
    const next = await putNewVersion(current, data, {
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      extraItems: (next) => [...lookupUpdates(next), ...destinations.touches, ...disarm],
    });
    forgetIntegrationLookups(next.id);
    return next;
  }, { exhausted: changedMeanwhile('Integration') });
}

/**
 * POST /integrations/:id/rotate_key: a new sender key, at once. The new version, its lookup items and the delete of the
 * old key's item are one transaction, so the old key stops working with the change (in this process at once, elsewhere
 * within LOOKUP_CACHE_TTL_MS). 422 for a type whose senders use no key.
 */
export async function rotateSenderKey(accountId: string, id: string): Promise<IntegrationItem> {
  return retryOnConflict(async () => {
    const current = await getIntegration(accountId, id);
    const typeId = current.data.integration_type.id;
    const option = senderKeyOptionOf(typeId);
    if (option === undefined) {
      const withKeys = Object.keys(INTEGRATION_TYPES).filter((type) => senderKeyOptionOf(type) !== undefined);
      throw invalid([`This integration is ${typeId}, whose senders use no key; rotate_key applies to integrations of type ${withKeys.join(', ')}`]);
    }
    const data: IntegrationData = { ...current.data, options: { ...current.data.options, [option]: newSenderKey() } };
    const next = await putNewVersion(current, data, { extraItems: (next) => lookupUpdates(next, current) });
    forgetIntegrationLookups(next.id);
    return next;
  }, { exhausted: changedMeanwhile('Integration') });
}

/**
 * Deletes the integration and its lookup items. Maintenance windows lose it from their integration_ids in
 * the same transaction; a window that served only this integration has no purpose left and is deleted.
 */
export async function deleteIntegration(accountId: string, id: string): Promise<void> {
  const removed = await removeEntity<IntegrationData>('INTEGRATION', accountId, id, async (item) => {
    const windows = await windowsOfIntegration(accountId, item.id);
    const extra: TransactItem[] = [...lookupDeletes(item), ...detachIntegrationItems(windows, item.id)];
    if (extra.length + 3 > TRANSACTION_ITEMS) {
      throw conflict(`Integration is attached to ${windows.length} maintenance windows, too many to change at once; remove it from some of them first`);
    }
    return extra;
  });
  forgetIntegrationLookups(removed.id);
}

/** Integrations that send alerts to the object with this canonical id (for deletes of account users, teams, routers). */
export async function integrationsReferencing(accountId: string, targetId: string): Promise<IntegrationItem[]> {
  const all = await listIntegrations(accountId);
  return all.filter((i) => [...i.data.account_user_ids, ...i.data.router_ids, ...i.data.team_ids].includes(targetId));
}
