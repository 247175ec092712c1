// Commenting: a comment on an alert, a broadcast or a comment, or standalone. A comment on an alert also writes the
// alert's `commented` log entry and its `alert.commented` webhook event in the same transaction, which is the alert's
// rule, so this lives with alerts and the comment resource (lib/comments) sits below them (decision 0034).
import { isConditionFailure } from '../db/conditions.ts';
import { alertKey } from '../db/keys.ts';
import { countOf, createEntities, getEntity, newEntityItem, type EntityItem } from '../db/repository.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { newId } from '../ids.ts';
import { nowMs } from '../clock.ts';
import { COMMENTABLE, commentData, commentedLogMessage, commentIndex, type CommentAuthor, type CommentCreate, type CommentData, type CommentParent, type CommentableType } from '../comments/schema.ts';
import { renderComment, type CommentItem } from '../comments/service.ts';
import { wakeWebhookTimers } from '../webhooks/index.ts';
import { logItem } from './items.ts';
import { getAlertItem } from './store.ts';
import { alertCommentedEvents } from './webhook-events.ts';

/**
 * Resolves the object commented on (id or prefix_id) in the caller's account to its canonical id;
 * 404 "Alert not found" / "Broadcast not found" / "Comment not found" when the account has no such object.
 */
export async function findCommentParent(accountId: string, type: CommentableType, idOrPrefixId: string): Promise<CommentParent> {
  // Alerts live in partitions of their own (docs/storage.md, "Alerts"), not in the account partition.
  if (type === 'Alert') return { type, id: (await getAlertItem(accountId, idOrPrefixId)).id };
  const item = await getEntity(COMMENTABLE[type], accountId, idOrPrefixId);
  return { type, id: item.id };
}

/**
 * The writes that put a comment on its alert's timeline, with the comment: a `commented` log entry (who, an excerpt,
 * the comment's id), only while the alert exists (a comment racing the alert's delete fails instead of leaving an
 * entry in a deleted alert's partition).
 */
function alertTimelineWrites(accountId: string, alertId: string, comment: CommentItem, author: CommentAuthor): TransactItem[] {
  const entry = logItem(accountId, alertId, newId(Date.parse(comment.createdAt)), comment.createdAt, {
    event: 'commented',
    message: commentedLogMessage(author, comment.data.body),
    account_user_id: author.accountUserId,
    comment_id: comment.id,
  });
  return [putNew(entry), { ConditionCheck: { Key: alertKey(accountId, alertId), ConditionExpression: 'attribute_exists(pk)' } }];
}

/**
 * Writes a comment by `author`, on `parent` or standalone (parent undefined). A comment on an alert appends its
 * `commented` log entry and records the `alert.commented` webhook event in the same transaction
 * (docs/outgoing-webhooks.md); 404 when the alert was deleted meanwhile.
 */
export async function createComment(accountId: string, author: CommentAuthor, input: CommentCreate, parent: CommentParent | undefined): Promise<CommentItem> {
  const item = await newEntityItem<CommentData>('COMMENT', accountId, commentData(input, author, parent));
  if (parent) Object.assign(item, commentIndex(accountId, parent, item.createdAt, item.id));
  const onAlert = parent?.type === 'Alert';
  const events =
    onAlert && (await countOf(accountId, 'OUTGOING_WEBHOOK')) > 0
      ? alertCommentedEvents(await getAlertItem(accountId, parent!.id), renderComment(item), nowMs())
      : { writes: [], timers: [] };
  try {
    await createEntities([item as EntityItem<unknown>], [...(onAlert ? alertTimelineWrites(accountId, parent!.id, item, author) : []), ...events.writes]);
  } catch (error) {
    // The alert's check failed: it is gone (404); any other condition failure is answered as it was.
    if (onAlert && isConditionFailure(error)) await getAlertItem(accountId, parent!.id);
    throw error;
  }
  await wakeWebhookTimers(events.timers);
  return item;
}

/**
 * The writes putting a note from an integration on an alert's timeline (Opsgenie's notes, docs/migrating.md): a
 * `commented` log entry naming the sender, written only while the alert exists. It is not a comment of
 * `GET /alerts/:id/comments`, whose author is always an account user.
 */
export function integrationNoteWrites(accountId: string, alertId: string, by: string, body: string): TransactItem[] {
  const at = nowMs();
  const entry = logItem(accountId, alertId, newId(at), new Date(at).toISOString(), { event: 'commented', message: `${by} noted: ${body}` });
  return [putNew(entry), { ConditionCheck: { Key: alertKey(accountId, alertId), ConditionExpression: 'attribute_exists(pk)' } }];
}
