import type { BaseRule } from './document.ts';
import { matchQuery } from './match.ts';

export type Evaluation<A> =
  | { readonly matched: true; readonly ruleIndex: number; readonly actions: readonly A[] }
  | { readonly matched: false };

/** Rules run top-down and the first match stops evaluation (docs/rules.md, "Choices made where the reference is silent"). */
export function firstMatchingRule<A, R extends BaseRule<A>>(
  rules: readonly R[],
  data: unknown,
  now: Date,
  applies: (rule: R) => boolean = () => true,
): Evaluation<A> {
  const ruleIndex = rules.findIndex((rule) => applies(rule) && matchQuery(rule.match, data, now));
  const rule = rules[ruleIndex];
  return rule ? { matched: true, ruleIndex, actions: rule.actions } : { matched: false };
}
