// Routers (docs/integrations.md, "Routers"): YAML rules that direct alerts, and default receivers for when no rule
// matches or the router is disabled. The rules are parsed and checked with lib/rule-engine on every write, and
// every receiver they or the defaults name must be an object of the account.

import type { EntityType } from '../db/keys.ts';
import {
  createEntity,
  findEntity,
  getEntity,
  listEntities,
  removeEntity,
  render,
  touchItem,
  updateEntity,
  type EntityItem,
  type TransactItem,
} from '../db/repository.ts';
import { conflict, invalid } from '../errors.ts';
import { integrationsReferencing } from '../integrations/service.ts';
import { parseRouterRules, receiverIdsOf } from '../rule-engine/index.ts';
import {
  DEFAULT_RECEIVER_FIELDS,
  receiverKindOf,
  rulesProblemMessage,
  type RouterCreateInput,
  type RouterData,
  type RouterUpdateInput,
} from './schema.ts';
import { entityCollection } from '../db/pages.ts';
import { MAX_RULE_RECEIVERS } from '../limits.ts';

export type RouterItem = EntityItem<RouterData>;


export const renderRouter = (item: RouterItem) => render(item);
export const getRouter = (accountId: string, id: string) => getEntity<RouterData>('ROUTER', accountId, id);
export const listRouters = (accountId: string) => listEntities<RouterData>('ROUTER', accountId);
export const routerListSource = (accountId: string) => entityCollection('ROUTER', accountId, (items: RouterItem[]) => items.map(renderRouter));

/** The receiver prefix ids a stored rules document assigns to (none when it no longer parses). */
export function ruleReceiversOf(rules: string): string[] {
  const parsed = parseRouterRules(rules);
  return parsed.ok ? receiverIdsOf(parsed.document) : [];
}

const isSelf = (self: RouterItem | undefined, value: string) => self !== undefined && (value === self.id || value === self.prefixId);

/**
 * Checks a router as it would be stored: default receivers exist (at least one), the rules parse, and
 * every receiver the rules name exists. Returns the data with canonical default receiver ids and the
 * touches that pin every receiver for the write's transaction. One 422 lists every problem.
 */
async function checkedRouter(accountId: string, self: RouterItem | undefined, draft: RouterData) {
  const data: RouterData = { ...draft };
  const targets = new Map<string, EntityItem<unknown>>();

  const defaults = DEFAULT_RECEIVER_FIELDS.filter(([field]) => draft[field] !== null);
  const defaultProblems = await Promise.all(
    defaults.map(async ([field, type, noun]): Promise<string | undefined> => {
      const value = draft[field] as string;
      if (type === 'ROUTER' && isSelf(self, value)) return `${field} cannot be the router itself`;
      const item = await findEntity(type, accountId, value);
      if (!item) return `${field} refers to unknown ${noun} ${value}`;
      data[field] = item.id;
      targets.set(item.sk, item);
      return undefined;
    }),
  );
  if (defaults.length === 0) {
    defaultProblems.push(
      'default_receiver_account_user_id, default_receiver_router_id or default_receiver_team_id is required: a router needs a default receiver',
    );
  }

  const parsed = parseRouterRules(draft.rules, { onSave: true });
  const rulesProblems: (string | undefined)[] = parsed.ok ? [] : parsed.problems.map(rulesProblemMessage);
  const receivers = parsed.ok ? receiverIdsOf(parsed.document) : [];
  if (receivers.length > MAX_RULE_RECEIVERS) rulesProblems.push(`rules may name at most ${MAX_RULE_RECEIVERS} different receivers; got ${receivers.length}`);
  else {
    rulesProblems.push(
      ...(await Promise.all(
        receivers.map(async (receiver): Promise<string | undefined> => {
          if (isSelf(self, receiver)) return `rules cannot assign the router to itself (${receiver})`;
          const kind = receiverKindOf(receiver) as { type: EntityType; noun: string };
          const item = await findEntity(kind.type, accountId, receiver);
          if (!item) return `rules names unknown ${kind.noun} ${receiver}`;
          targets.set(item.sk, item);
          return undefined;
        }),
      )),
    );
  }
  // In a fixed order (defaults, then the rules top-down), so the same router always reads the same 422.
  const problems = [...defaultProblems, ...rulesProblems].filter((p): p is string => p !== undefined);
  if (problems.length) throw invalid(problems);
  // Touching every receiver makes a receiver's concurrent delete and this write exclude each other.
  const touches: TransactItem[] = [...targets.values()].map((target) => touchItem(target));
  return { data, touches };
}

export async function createRouter(accountId: string, input: RouterCreateInput): Promise<RouterItem> {
  const { data, touches } = await checkedRouter(accountId, undefined, {
    name: input.name,
    enabled: input.enabled ?? true,
    rules: input.rules ?? '',
    default_receiver_account_user_id: input.default_receiver_account_user_id ?? null,
    default_receiver_router_id: input.default_receiver_router_id ?? null,
    default_receiver_team_id: input.default_receiver_team_id ?? null,
  });
  return createEntity<RouterData>('ROUTER', accountId, data, { meta: input.meta ?? {}, extraItems: touches });
}

/** Partial update; the router as it would be stored is checked again as a whole (rules and receivers). */
export async function updateRouter(accountId: string, id: string, input: RouterUpdateInput): Promise<RouterItem> {
  return updateEntity<RouterData>('ROUTER', accountId, id, async (current) => {
    const pick = <K extends keyof RouterData>(key: K): RouterData[K] => (input[key] !== undefined ? (input[key] as RouterData[K]) : current.data[key]);
    const { data, touches } = await checkedRouter(accountId, current, {
      name: pick('name'),
      enabled: pick('enabled'),
      rules: pick('rules'),
      default_receiver_account_user_id: pick('default_receiver_account_user_id'),
      default_receiver_router_id: pick('default_receiver_router_id'),
      default_receiver_team_id: pick('default_receiver_team_id'),
    });
    return { data, ...(input.meta !== undefined ? { meta: input.meta } : {}), extraItems: () => touches };
  });
}

/**
 * Routers that send alerts to the object: as a default receiver (canonical id) or in their rules (prefix
 * id). For the deletes of account users, teams and routers.
 */
export async function routersReferencing(accountId: string, target: { id: string; prefixId: string }): Promise<RouterItem[]> {
  const routers = await listRouters(accountId);
  return routers.filter(
    (r) =>
      r.id !== target.id &&
      (DEFAULT_RECEIVER_FIELDS.some(([field]) => r.data[field] === target.id) || ruleReceiversOf(r.data.rules).includes(target.prefixId)),
  );
}

/** A router that other routers or integrations send alerts to cannot be deleted: alerts would lose their way. */
export async function deleteRouter(accountId: string, id: string): Promise<void> {
  await removeEntity<RouterData>('ROUTER', accountId, id, async (router) => {
    const [routers, integrations] = await Promise.all([routersReferencing(accountId, router), integrationsReferencing(accountId, router.id)]);
    const users = [
      ...routers.map((r) => `router "${r.data.name}" (${r.prefixId})`),
      ...integrations.map((i) => `integration "${i.data.name}" (${i.prefixId})`),
    ];
    if (users.length) throw conflict(`Router is used by ${users.join(', ')}; remove it from them first`);
  });
}
