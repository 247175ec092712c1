// The COMMENT resource: the request schema, the stored data shape (API names, snake_case) and the pure rules
// that turn a request into stored data. Choices: docs/comments.md.
import { z } from 'zod';
import { childrenGsi, type EntityType } from '../db/keys.ts';
import { COMMENT_BODY_MAX_CHARACTERS, COMMENT_LOG_EXCERPT_CHARACTERS } from '../limits.ts';

/** Longest accepted body, in Unicode characters (code points, so an emoji counts as one). */

const characterCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

/**
 * `body` is the only parameter (docs/comments.md, "Rules and choices"); everything else in the request, including parent and author
 * fields, is ignored. The body is stored exactly as sent (no trimming), but a whitespace-only body is blank.
 */
export const commentCreate = z.object({
  body: z
    .string({ error: 'must be a string' })
    .refine((text) => text.trim() !== '', { error: "can't be blank", abort: true })
    .refine((text) => characterCount(text) <= COMMENT_BODY_MAX_CHARACTERS, {
      error: `is longer than ${COMMENT_BODY_MAX_CHARACTERS} characters`,
    }),
});
export type CommentCreate = z.output<typeof commentCreate>;

/** What a comment can be attached to: the API's commentable_type → the stored entity type. */
export const COMMENTABLE = { Alert: 'ALERT', Broadcast: 'BROADCAST', Comment: 'COMMENT' } as const satisfies Record<string, EntityType>;
export type CommentableType = keyof typeof COMMENTABLE;

export interface CommentData {
  body: string;
  /** null for a standalone comment (POST /comments). */
  commentable_type: CommentableType | null;
  /** Canonical id (ULID) of the alert, broadcast or comment commented on; null when standalone. */
  commentable_id: string | null;
  /** The API key's account user. */
  account_user_id: string;
  /** The author's display name when the comment was written (kept if the person is renamed later). */
  created_by_name: string;
  /** Canonical id of the comment replied to (a comment on a comment); null otherwise. */
  parent_id: string | null;
}

export interface CommentAuthor {
  accountUserId: string;
  displayName: string;
}

/** The commented-on object, already resolved to its canonical id. */
export interface CommentParent {
  type: CommentableType;
  id: string;
}

export function commentData(input: CommentCreate, author: CommentAuthor, parent: CommentParent | undefined): CommentData {
  return {
    body: input.body,
    commentable_type: parent?.type ?? null,
    commentable_id: parent?.id ?? null,
    account_user_id: author.accountUserId,
    created_by_name: author.displayName,
    parent_id: parent?.type === 'Comment' ? parent.id : null,
  };
}

/** The gsi1 collection holding the comments of one parent. */
export const commentsOfParentGsi = (accountId: string, parent: CommentParent): string => childrenGsi(accountId, COMMENTABLE[parent.type], parent.id);

/** Index entry of a comment on a parent: its parent's collection, ordered by creation time then id. */
export function commentIndex(accountId: string, parent: CommentParent, createdAt: string, id: string): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: commentsOfParentGsi(accountId, parent), gsi1sk: `${createdAt}#${id}` };
}

/**
 * What an alert's `commented` log entry quotes of a comment: its text on one line (runs of spaces and line breaks as
 * one space), cut after COMMENT_LOG_EXCERPT_CHARACTERS characters with `…`.
 */
export function commentExcerpt(body: string): string {
  const characters = [...body.replace(/\s+/gu, ' ').trim()];
  return characters.length > COMMENT_LOG_EXCERPT_CHARACTERS ? `${characters.slice(0, COMMENT_LOG_EXCERPT_CHARACTERS).join('')}…` : characters.join('');
}

/** The `commented` entry of the alert's log: who commented, and an excerpt (docs/alerts.md, "Log entries"). */
export function commentedLogMessage(author: CommentAuthor, body: string): string {
  const who = author.displayName.trim() === '' ? `Account user ${author.accountUserId}` : `${author.displayName} (account user ${author.accountUserId})`;
  return `${who} commented: "${commentExcerpt(body)}"`;
}
