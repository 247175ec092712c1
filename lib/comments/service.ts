// Comments: stored as COMMENT entities in the account partition; a comment on an alert, broadcast or comment
// is also indexed in gsi1 under its parent, so one parent's comments are read without reading the account's.
// Writing one is lib/alerts/comments.ts: a comment on an alert changes the alert's timeline and webhook events in the
// same transaction, so comments sit below alerts (decision 0034).
import { getEntity, listByIndex, listEntities, render, type EntityItem } from '../db/repository.ts';
import { commentsOfParentGsi, type CommentData, type CommentParent } from './schema.ts';
import { entityCollection } from '../db/pages.ts';

export type CommentItem = EntityItem<CommentData>;

export const renderComment = (item: CommentItem) => render(item);

export const getComment = (accountId: string, idOrPrefixId: string) => getEntity<CommentData>('COMMENT', accountId, idOrPrefixId);

/** Every comment of the account, whatever it is attached to. */
export const listComments = (accountId: string) => listEntities<CommentData>('COMMENT', accountId);
export const commentListSource = (accountId: string) => entityCollection('COMMENT', accountId, (items: CommentItem[]) => items.map(renderComment));

/** The comments of one parent, oldest first (the collection may one day hold other child types: keep comments only). */
export async function listCommentsOf(accountId: string, parent: CommentParent): Promise<CommentItem[]> {
  const children = await listByIndex<EntityItem<unknown>>(commentsOfParentGsi(accountId, parent));
  return children.filter((child): child is CommentItem => child.type === 'COMMENT' && child.accountId === accountId);
}
