// The comments on a commentable object, replies at any depth included: what deleting the object deletes with it.
import { listByIndex, type EntityItem } from '../db/repository.ts';
import { commentsOfParentGsi, type CommentParent } from './schema.ts';

/** Every comment under `parent`, level by level (its comments, their replies, …), each once. */
export async function commentThreadOf(accountId: string, parent: CommentParent): Promise<EntityItem<unknown>[]> {
  const ofParent = async (of: CommentParent) =>
    (await listByIndex<EntityItem<unknown>>(commentsOfParentGsi(accountId, of))).filter((c) => c.type === 'COMMENT' && c.accountId === accountId);
  const thread: EntityItem<unknown>[] = [];
  const seen = new Set<string>();
  let level = await ofParent(parent);
  while (level.length > 0) {
    const fresh = level.filter((c) => !seen.has(c.id));
    for (const c of fresh) seen.add(c.id);
    thread.push(...fresh);
    level = (await Promise.all(fresh.map((c) => ofParent({ type: 'Comment', id: c.id })))).flat();
  }
  return thread;
}
