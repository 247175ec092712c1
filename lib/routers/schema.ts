import { z } from 'zod';
import type { EntityType } from '../db/keys.ts';
import { booleanFlag, clearableId, metaSchema, requiredText } from '../api-shapes/schemas.ts';
import { problemText, type Problem } from '../rule-engine/index.ts';

/** An id field that may be cleared: null or "" means none. */
const receiverId = clearableId;

/** Rules YAML; null means none (stored as ""). Its grammar is checked by lib/rule-engine on every write. */
export const rulesText = z
  .string({ error: 'must be a string of YAML' })
  .nullable()
  .transform((value) => value ?? '');

export const routerCreate = z.object({
  name: requiredText(),
  enabled: booleanFlag.optional(),
  rules: rulesText.optional(),
  default_receiver_account_user_id: receiverId.optional(),
  default_receiver_router_id: receiverId.optional(),
  default_receiver_team_id: receiverId.optional(),
  meta: metaSchema,
});
export const routerUpdate = routerCreate.partial();

export type RouterCreateInput = z.output<typeof routerCreate>;
export type RouterUpdateInput = z.output<typeof routerUpdate>;

/** Stored fields of a ROUTER, exactly as the API shows them (ids canonical). */
export interface RouterData {
  name: string;
  enabled: boolean;
  rules: string;
  default_receiver_account_user_id: string | null;
  default_receiver_router_id: string | null;
  default_receiver_team_id: string | null;
}

export const DEFAULT_RECEIVER_FIELDS = [
  ['default_receiver_account_user_id', 'ACCOUNT_USER', 'account user'],
  ['default_receiver_router_id', 'ROUTER', 'router'],
  ['default_receiver_team_id', 'TEAM', 'team'],
] as const satisfies ReadonlyArray<readonly [keyof RouterData, EntityType, string]>;

/** The entity a receiver prefix id of the rules names (`usr_`, `tem_`, `rtr_`). */
export const RECEIVER_PREFIXES: Readonly<Record<string, { type: EntityType; noun: string }>> = {
  usr: { type: 'ACCOUNT_USER', noun: 'account user' },
  tem: { type: 'TEAM', noun: 'team' },
  rtr: { type: 'ROUTER', noun: 'router' },
};

export function receiverKindOf(prefixId: string): { type: EntityType; noun: string } | undefined {
  const prefix = prefixId.split('_', 1)[0] ?? '';
  return Object.hasOwn(RECEIVER_PREFIXES, prefix) ? RECEIVER_PREFIXES[prefix] : undefined;
}

/** A rules problem as the API reports it: `rules line 4: unknown action type "asign"`. */
export const rulesProblemMessage = (problem: Problem): string => `rules ${problemText(problem)}`;
