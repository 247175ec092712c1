import { describe, expect, it } from 'vitest';
import { commentCreate, commentData, commentIndex } from '#lib/comments/schema.ts';
import { COMMENT_BODY_MAX_CHARACTERS } from '#lib/limits.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { messagesOf } from '../support.ts';

const problems = (input: unknown) => messagesOf(() => validate(commentCreate, input));

describe('comment body', () => {
  it('is required, a string, and not blank', () => {
    expect(problems({})).toEqual(['body is required']);
    expect(problems({ body: null })).toEqual(['body must be a string']);
    expect(problems({ body: 42 })).toEqual(['body must be a string']);
    expect(problems({ body: '' })).toEqual(["body can't be blank"]);
    expect(problems({ body: ' \n\t ' })).toEqual(["body can't be blank"]);
  });

  it('is kept exactly as sent, and only body is taken from the request', () => {
    const input = validate(commentCreate, { body: '  indented\n```\ncode\n```\n', account_user_id: 'usr_x', commentable_type: 'Alert' });
    expect(input).toEqual({ body: '  indented\n```\ncode\n```\n' });
  });

  it(`counts characters as code points, up to ${COMMENT_BODY_MAX_CHARACTERS}`, () => {
    expect(validate(commentCreate, { body: 'x'.repeat(COMMENT_BODY_MAX_CHARACTERS) }).body).toHaveLength(COMMENT_BODY_MAX_CHARACTERS);
    // 10,000 emoji are 20,000 UTF-16 code units but 10,000 characters.
    expect(validate(commentCreate, { body: '🔥'.repeat(COMMENT_BODY_MAX_CHARACTERS) }).body).toHaveLength(2 * COMMENT_BODY_MAX_CHARACTERS);
    expect(problems({ body: 'x'.repeat(COMMENT_BODY_MAX_CHARACTERS + 1) })).toEqual([`body is longer than ${COMMENT_BODY_MAX_CHARACTERS} characters`]);
    expect(problems({ body: '🔥'.repeat(COMMENT_BODY_MAX_CHARACTERS + 1) })).toEqual([`body is longer than ${COMMENT_BODY_MAX_CHARACTERS} characters`]);
  });
});

describe('comment data', () => {
  const author = { accountUserId: '01HAUTHOR0000000000000000A', displayName: 'Ada Lovelace' };
  const input = { body: 'Restarted the primary' };

  it('records the author and no parent for a standalone comment', () => {
    expect(commentData(input, author, undefined)).toEqual({
      body: 'Restarted the primary',
      commentable_type: null,
      commentable_id: null,
      account_user_id: author.accountUserId,
      created_by_name: 'Ada Lovelace',
      parent_id: null,
    });
  });

  it('points at an alert or a broadcast without a parent_id', () => {
    for (const type of ['Alert', 'Broadcast'] as const) {
      expect(commentData(input, author, { type, id: 'P1' })).toMatchObject({ commentable_type: type, commentable_id: 'P1', parent_id: null });
    }
  });

  it('sets parent_id to the comment replied to', () => {
    expect(commentData(input, author, { type: 'Comment', id: 'C1' })).toMatchObject({ commentable_type: 'Comment', commentable_id: 'C1', parent_id: 'C1' });
  });

  it("indexes a comment in its parent's gsi1 collection, ordered by created_at then id", () => {
    expect(commentIndex('ACC', { type: 'Alert', id: 'AL1' }, '2024-05-01T10:00:00.000Z', 'CM1')).toEqual({
      gsi1pk: 'A#ACC#ALERT#AL1',
      gsi1sk: '2024-05-01T10:00:00.000Z#CM1',
    });
    expect(commentIndex('ACC', { type: 'Broadcast', id: 'B1' }, 't', 'i').gsi1pk).toBe('A#ACC#BROADCAST#B1');
    expect(commentIndex('ACC', { type: 'Comment', id: 'C1' }, 't', 'i').gsi1pk).toBe('A#ACC#COMMENT#C1');
  });
});

describe('the commented log entry', () => {
  it('quotes the comment on one line, cut after COMMENT_LOG_EXCERPT_CHARACTERS characters (code points) with …', async () => {
    const { COMMENT_LOG_EXCERPT_CHARACTERS } = await import('#lib/limits.ts');
    const { commentExcerpt, commentedLogMessage } = await import('#lib/comments/schema.ts');
    expect(commentExcerpt('  Looking\n\n into\tit  ')).toBe('Looking into it');
    const exact = 'y'.repeat(COMMENT_LOG_EXCERPT_CHARACTERS);
    expect(commentExcerpt(exact)).toBe(exact);
    expect(commentExcerpt(`${'🔥'.repeat(COMMENT_LOG_EXCERPT_CHARACTERS)}!`)).toBe(`${'🔥'.repeat(COMMENT_LOG_EXCERPT_CHARACTERS)}…`);
    expect(commentedLogMessage({ accountUserId: 'AU1', displayName: 'Ada' }, 'On it')).toBe('Ada (account user AU1) commented: "On it"');
    expect(commentedLogMessage({ accountUserId: 'AU1', displayName: ' ' }, 'On it')).toBe('Account user AU1 commented: "On it"');
  });
});
