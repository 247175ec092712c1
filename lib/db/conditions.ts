// Recognising a conditional write that lost a race; no SDK import, so error renderers can use it cheaply.

/** True when DynamoDB refused a write because one of its conditions (or a concurrent transaction) failed. */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  if (name === 'ConditionalCheckFailedException') return true;
  if (name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
  }
  return false;
}

/**
 * True when a condition itself failed (not a conflict with a concurrent transaction, which is worth retrying): a
 * single write's ConditionalCheckFailedException, or a transaction cancelled because the condition of its item at
 * `index` (any item when omitted) failed. Used to tell "already written" from "try again".
 */
export function isConditionCheckFailed(error: unknown, index?: number): boolean {
  const name = (error as { name?: string })?.name;
  if (name === 'ConditionalCheckFailedException') return index === undefined || index === 0;
  if (name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return index === undefined ? reasons.some((r) => r.Code === 'ConditionalCheckFailed') : reasons[index]?.Code === 'ConditionalCheckFailed';
}
