// Comments: stored as COMMENT entities in the account partition; a comment on an alert, broadcast or comment
// is also indexed in gsi1 under its parent, so one parent's comments are read without reading the account's.
import { logItem } from '../alerts/items.ts';
import { getAlertItem } from '../alerts/store.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { alertKey } from '../db/keys.ts';
import { countOf, createEntities, getEntity, listByIndex, listEntities, newEntityItem, render, type EntityItem } from '../db/repository.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { newId } from '../ids.ts';
import {
  COMMENTABLE,
  commentData,
  commentedLogMessage,
  commentIndex,
  commentsOfParentGsi,
  type CommentAuthor,
  type CommentCreate,
  type CommentData,
  type CommentParent,
  type CommentableType,
} from './schema.ts';
import { entityCollection } from '../db/pages.ts';
import { nowMs } from '../clock.ts';
import { alertCommentedEvents, wakeWebhookTimers } from '../webhooks/index.ts';

export type CommentItem = EntityItem<CommentData>;

export const renderComment = (item: CommentItem) => render(item);

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

export const getComment = (accountId: string, idOrPrefixId: string) => getEntity<CommentData>('COMMENT', accountId, idOrPrefixId);

/** Every comment of the account, whatever it is attached to. */
export const listComments = (accountId: string) => listEntities<CommentData>('COMMENT', accountId);
export const commentListSource = (accountId: string) => entityCollection('COMMENT', accountId, (items: CommentItem[]) => items.map(renderComment));

/** The comments of one parent, oldest first (the collection may one day hold other child types: keep comments only). */
export async function listCommentsOf(accountId: string, parent: CommentParent): Promise<CommentItem[]> {
  const children = await listByIndex<EntityItem<unknown>>(commentsOfParentGsi(accountId, parent));
  return children.filter((child): child is CommentItem => child.type === 'COMMENT' && child.accountId === accountId);
}
