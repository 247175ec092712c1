// Comments through the gateway: standalone, on alerts, on broadcasts and on comments; authorship from the key;
// per-parent lists; account isolation; the unsupported PUT and DELETE.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { getUser } from '#lib/people/user-store.ts';
import { findApiKey } from '#lib/auth/api-keys.ts';
import { COMMENT_BODY_MAX_CHARACTERS } from '#lib/limits.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { userKey } from '#lib/db/keys.ts';
import { createEntity, findEntity, type EntityItem } from '#lib/db/repository.ts';
import { errorMessages, newAccount, request, useTestStack, type Reply, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

interface Comment {
  id: string;
  prefix_id: string;
  tiny_id: number;
  account_id: string;
  body: string;
  commentable_type: 'Alert' | 'Broadcast' | 'Comment' | null;
  commentable_id: string | null;
  account_user_id: string;
  created_by_name: string;
  parent_id: string | null;
  meta: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

let acme: TestAccount;
let globex: TestAccount;
let acmeAdminName: string;
/** Alerts are created through POST /alerts; broadcasts only the data layer can create until their group exists. */
interface Parent {
  id: string;
  prefixId: string;
}
let alert: Parent;
let otherAlert: Parent;
let broadcast: EntityItem;
let globexAlert: Parent;
let globexBroadcast: EntityItem;

/** The display name of an account user's person, read from the data layer. */
async function personNameOf(accountId: string, accountUserId: string): Promise<string> {
  const accountUser = await findEntity<{ user_id: string }>('ACCOUNT_USER', accountId, accountUserId);
  const person = await getUser(accountUser!.data.user_id);
  return person!.name;
}

const ids = (reply: Reply) => (reply.body.data as Comment[]).map((c) => c.id);
const bodies = (reply: Reply) => (reply.body.data as Comment[]).map((c) => c.body);

async function comment(account: TestAccount, path: string, body: string): Promise<Comment> {
  const reply = await account.api<Comment>('POST', path, { body });
  if (reply.status !== 201) throw new Error(`POST ${path} answered ${reply.status}: ${reply.text}`);
  return reply.body;
}

/** An alert paging the account's admin directly, made through the API. */
async function newAlert(account: TestAccount, title: string, urgency: string): Promise<Parent> {
  const reply = await account.api('POST', '/alerts', { title, urgency, destination_account_user_ids: [account.adminAccountUserId] });
  if (reply.status !== 201) throw new Error(`POST /alerts answered ${reply.status}: ${reply.text}`);
  return { id: reply.body.id, prefixId: reply.body.prefix_id };
}

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
  acmeAdminName = await personNameOf(acme.accountId, acme.adminAccountUserId);
  alert = await newAlert(acme, 'Disk full on db-1', 'high');
  otherAlert = await newAlert(acme, 'CPU high on web-3', 'low');
  broadcast = await createEntity('BROADCAST', acme.accountId, { title: 'Maintenance tonight', status: 'open' });
  globexAlert = await newAlert(globex, 'Globex alert', 'low');
  globexBroadcast = await createEntity('BROADCAST', globex.accountId, { title: 'Globex broadcast', status: 'open' });
});

describe('creating comments', () => {
  it('creates a standalone comment with 201, authored by the key, ignoring every parameter but body', async () => {
    const reply = await acme.api<Comment>('POST', '/comments', {
      body: 'Shift notes: all quiet',
      account_user_id: 'usr_abcdefghijkl',
      created_by_name: 'Someone Else',
      commentable_type: 'Alert',
      commentable_id: alert.id,
      parent_id: 'cmt_abcdefghijkl',
      meta: { x: 1 },
    });
    expect(reply.status).toBe(201);
    const c = reply.body;
    expect(c).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^cmt_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      body: 'Shift notes: all quiet',
      commentable_type: null,
      commentable_id: null,
      account_user_id: acme.adminAccountUserId,
      created_by_name: acmeAdminName,
      parent_id: null,
      meta: {},
      created_at: c.created_at,
      updated_at: c.created_at,
    });
    expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
    expect(acmeAdminName).not.toBe('');
    expect((await acme.api('GET', `/alerts/${alert.id}/comments?limit=100`)).body.data.map((x: Comment) => x.id)).not.toContain(c.id);
  });

  it('comments on an alert addressed by id or prefix_id, storing the canonical id', async () => {
    for (const address of [alert.id, alert.prefixId]) {
      const reply = await acme.api<Comment>('POST', `/alerts/${address}/comments`, { body: `Looking into it (${address})` });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        body: `Looking into it (${address})`,
        commentable_type: 'Alert',
        commentable_id: alert.id,
        parent_id: null,
        account_user_id: acme.adminAccountUserId,
        created_by_name: acmeAdminName,
      });
      expect(reply.body.prefix_id).toMatch(/^cmt_/);
    }
    const elsewhere = await comment(acme, `/alerts/${otherAlert.prefixId}/comments`, 'Different alert');
    expect(elsewhere).toMatchObject({ commentable_type: 'Alert', commentable_id: otherAlert.id });
    const thread = await acme.api('GET', `/alerts/${alert.id}/comments?limit=100`);
    expect(bodies(thread)).toEqual(expect.arrayContaining([`Looking into it (${alert.id})`, `Looking into it (${alert.prefixId})`]));
    expect(ids(thread)).not.toContain(elsewhere.id);
    expect(ids(await acme.api('GET', `/alerts/${otherAlert.id}/comments`))).toEqual([elsewhere.id]);
  });

  it('comments on a broadcast addressed by id or prefix_id', async () => {
    for (const address of [broadcast.id, broadcast.prefixId]) {
      const reply = await acme.api<Comment>('POST', `/broadcasts/${address}/comments`, { body: 'Acknowledged, I will be around' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        commentable_type: 'Broadcast',
        commentable_id: broadcast.id,
        parent_id: null,
        account_user_id: acme.adminAccountUserId,
        created_by_name: acmeAdminName,
      });
    }
  });

  it('replies to a comment (and to a reply), setting commentable and parent_id to the canonical comment id', async () => {
    const root = await comment(acme, `/alerts/${alert.id}/comments`, 'Root cause: log rotation stopped');
    const reply = await acme.api<Comment>('POST', `/comments/${root.prefix_id}/comments`, { body: 'Agreed, fixing the cron' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      commentable_type: 'Comment',
      commentable_id: root.id,
      parent_id: root.id,
      account_user_id: acme.adminAccountUserId,
      created_by_name: acmeAdminName,
    });
    const nested = await acme.api<Comment>('POST', `/comments/${reply.body.id}/comments`, { body: 'Done' });
    expect(nested.status).toBe(201);
    expect(nested.body).toMatchObject({ commentable_type: 'Comment', commentable_id: reply.body.id, parent_id: reply.body.id });
    // A reply belongs to its comment, not to the alert the thread started on.
    const onAlert = ids(await acme.api('GET', `/alerts/${alert.id}/comments?limit=100`));
    expect(onAlert).toContain(root.id);
    expect(onAlert).not.toContain(reply.body.id);
  });

  it('numbers tiny_id sequentially across parents', async () => {
    const a = await comment(acme, '/comments', 'one');
    const b = await comment(acme, `/broadcasts/${broadcast.id}/comments`, 'two');
    const c = await comment(acme, `/comments/${a.id}/comments`, 'three');
    expect([b.tiny_id, c.tiny_id]).toEqual([a.tiny_id + 1, a.tiny_id + 2]);
  });

  it('keeps the body exactly as sent, and accepts the longest allowed body', async () => {
    const exact = await comment(acme, '/comments', '  - step 1\n  - step 2\n');
    expect(exact.body).toBe('  - step 1\n  - step 2\n');
    const longest = '🔥'.repeat(COMMENT_BODY_MAX_CHARACTERS);
    expect((await comment(acme, `/alerts/${alert.id}/comments`, longest)).body).toBe(longest);
  });
});

describe('the alert timeline', () => {
  const commentedOf = async (alertId: string) =>
    ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; message: string; account_user_id?: string; comment_id?: string }[]).filter(
      (l) => l.event === 'commented',
    );

  it('a comment on an alert appends a commented entry: who, an excerpt on one line cut at 80 characters, the comment', async () => {
    const target = await newAlert(acme, 'Timeline alert', 'low');
    const short = await comment(acme, `/alerts/${target.prefixId}/comments`, 'Looking into it\n\n  now');
    const long = await comment(acme, `/alerts/${target.id}/comments`, `${'x'.repeat(79)}🔥🔥 and more`);
    expect(await commentedOf(target.id)).toEqual([
      expect.objectContaining({ account_user_id: acme.adminAccountUserId, comment_id: short.id, message: `${acmeAdminName} (account user ${acme.adminAccountUserId}) commented: "Looking into it now"` }),
      expect.objectContaining({ comment_id: long.id, message: `${acmeAdminName} (account user ${acme.adminAccountUserId}) commented: "${'x'.repeat(79)}🔥…"` }),
    ]);
    // Replies to its comments, and comments on broadcasts, leave the alert's log alone.
    await comment(acme, `/comments/${short.id}/comments`, 'Thanks');
    expect(await commentedOf(target.id)).toHaveLength(2);
  });

  it('a comment racing the alert’s delete is refused 404 and leaves nothing behind', async () => {
    const target = await newAlert(acme, 'Deleted meanwhile', 'low');
    expect((await acme.api('DELETE', `/alerts/${target.id}`)).status).toBe(204);
    const { createComment } = await import('#lib/alerts/comments.ts');
    const before = (await acme.api('GET', '/comments?limit=1')).body.total_count;
    await expect(createComment(acme.accountId, { accountUserId: acme.adminAccountUserId, displayName: 'Ada' }, { body: 'Too late' }, { type: 'Alert', id: target.id })).rejects.toMatchObject({
      kind: 'not_found',
    });
    expect((await acme.api('GET', '/comments?limit=1')).body.total_count).toBe(before);
  });
});

describe('validation', () => {
  const postPaths = () => ['/comments', `/alerts/${alert.id}/comments`, `/broadcasts/${broadcast.prefixId}/comments`];

  it('422 naming body when it is missing, blank, not a string or too long, creating nothing', async () => {
    const parent = await comment(acme, '/comments', 'parent for validation');
    const before = (await acme.api('GET', '/comments')).body.total_count;
    for (const path of [...postPaths(), `/comments/${parent.id}/comments`]) {
      const cases: [unknown, string][] = [
        [{}, 'body is required'],
        [{ body: '' }, "body can't be blank"],
        [{ body: '  \n\t' }, "body can't be blank"],
        [{ body: null }, 'body must be a string'],
        [{ body: 12 }, 'body must be a string'],
        [{ body: ['text'] }, 'body must be a string'],
        [{ body: 'x'.repeat(COMMENT_BODY_MAX_CHARACTERS + 1) }, `body is longer than ${COMMENT_BODY_MAX_CHARACTERS} characters`],
      ];
      for (const [payload, message] of cases) {
        const reply = await acme.api('POST', path, payload);
        expect(reply.status, `${path} ${JSON.stringify(payload).slice(0, 40)}`).toBe(422);
        expect(errorMessages(reply)).toEqual([message]);
      }
    }
    expect((await acme.api('GET', '/comments')).body.total_count).toBe(before);
  });

  it('422 for a request without a body at all', async () => {
    const reply = await request('POST', '/api/v4/comments', { key: acme.adminKey });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['body is required']);
  });
});

describe('unknown parents', () => {
  const unknown = ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'alt_abcdefghijkl', 'brd_abcdefghijkl', 'cmt_abcdefghijkl', 'nonsense'];

  it('404 naming the parent kind for unknown ids, on POST and GET, checked before the body', async () => {
    for (const [segment, message] of [
      ['alerts', 'Alert not found'],
      ['broadcasts', 'Broadcast not found'],
      ['comments', 'Comment not found'],
    ] as const) {
      for (const id of unknown) {
        const post = await acme.api('POST', `/${segment}/${id}/comments`, { body: 'hello' });
        expect(post.status, `${segment}/${id}`).toBe(404);
        expect(errorMessages(post)).toEqual([message]);
        const invalid = await acme.api('POST', `/${segment}/${id}/comments`, {});
        expect(invalid.status).toBe(404);
        expect(errorMessages(invalid)).toEqual([message]);
        const get = await acme.api('GET', `/${segment}/${id}/comments`);
        expect(get.status).toBe(404);
        expect(errorMessages(get)).toEqual([message]);
      }
    }
  });

  it('404 when the id names an object of another kind', async () => {
    const existing = await comment(acme, '/comments', 'a comment, not an alert');
    const cases: [string, string][] = [
      [`/alerts/${broadcast.id}/comments`, 'Alert not found'],
      [`/alerts/${broadcast.prefixId}/comments`, 'Alert not found'],
      [`/alerts/${existing.prefix_id}/comments`, 'Alert not found'],
      [`/broadcasts/${alert.id}/comments`, 'Broadcast not found'],
      [`/broadcasts/${alert.prefixId}/comments`, 'Broadcast not found'],
      [`/comments/${alert.id}/comments`, 'Comment not found'],
      [`/comments/${broadcast.prefixId}/comments`, 'Comment not found'],
    ];
    for (const [path, message] of cases) {
      const reply = await acme.api('POST', path, { body: 'wrong parent' });
      expect(reply.status, path).toBe(404);
      expect(errorMessages(reply)).toEqual([message]);
    }
    const wrongKind = await acme.api('GET', `/comments/${alert.prefixId}`);
    expect(wrongKind.status).toBe(404);
    expect(errorMessages(wrongKind)).toEqual(['Comment not found']);
  });
});

describe('account isolation', () => {
  it("answers 404 for another account's alert, broadcast and comment, by id and by prefix_id", async () => {
    const theirs = await comment(globex, `/alerts/${globexAlert.id}/comments`, 'Globex internal note');
    const cases: [string, string][] = [
      [`/alerts/${globexAlert.id}/comments`, 'Alert not found'],
      [`/alerts/${globexAlert.prefixId}/comments`, 'Alert not found'],
      [`/broadcasts/${globexBroadcast.id}/comments`, 'Broadcast not found'],
      [`/broadcasts/${globexBroadcast.prefixId}/comments`, 'Broadcast not found'],
      [`/comments/${theirs.id}/comments`, 'Comment not found'],
      [`/comments/${theirs.prefix_id}/comments`, 'Comment not found'],
    ];
    for (const [path, message] of cases) {
      const post = await acme.api('POST', path, { body: 'crossing accounts' });
      expect(post.status, path).toBe(404);
      expect(errorMessages(post)).toEqual([message]);
      const get = await acme.api('GET', path);
      expect(get.status, path).toBe(404);
      expect(errorMessages(get)).toEqual([message]);
    }
    for (const id of [theirs.id, theirs.prefix_id]) {
      const get = await acme.api('GET', `/comments/${id}`);
      expect(get.status).toBe(404);
      expect(errorMessages(get)).toEqual(['Comment not found']);
    }
    expect(ids(await acme.api('GET', '/comments?limit=100'))).not.toContain(theirs.id);
    // Globex still sees its own comment and its alert's thread is unchanged.
    expect((await globex.api('GET', `/comments/${theirs.prefix_id}`)).body.body).toBe('Globex internal note');
    expect(ids(await globex.api('GET', `/alerts/${globexAlert.prefixId}/comments`))).toEqual([theirs.id]);
  });
});

describe('reading comments', () => {
  it('retrieves one comment by id and by prefix_id, and 404 for unknown ids', async () => {
    const c = await comment(acme, `/broadcasts/${broadcast.id}/comments`, 'Retrievable');
    for (const id of [c.id, c.prefix_id]) {
      const reply = await acme.api('GET', `/comments/${id}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(c);
    }
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'cmt_abcdefghijkl', 'nonsense']) {
      const reply = await acme.api('GET', `/comments/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Comment not found']);
    }
  });

  it("lists exactly one parent's comments for each parent kind, newest first", async () => {
    const fresh = await newAccount('Threads');
    const a1 = await newAlert(fresh, 'A1', 'low');
    const a2 = await newAlert(fresh, 'A2', 'low');
    const b1 = await createEntity('BROADCAST', fresh.accountId, { title: 'B1' });
    const onA1 = [await comment(fresh, `/alerts/${a1.id}/comments`, 'a1 first'), await comment(fresh, `/alerts/${a1.id}/comments`, 'a1 second')];
    const onA2 = await comment(fresh, `/alerts/${a2.id}/comments`, 'a2 only');
    const onB1 = await comment(fresh, `/broadcasts/${b1.id}/comments`, 'b1 only');
    const standalone = await comment(fresh, '/comments', 'standalone');
    const replies = [await comment(fresh, `/comments/${onA1[0]!.id}/comments`, 'reply 1'), await comment(fresh, `/comments/${onA1[0]!.id}/comments`, 'reply 2')];
    const grandchild = await comment(fresh, `/comments/${replies[0]!.id}/comments`, 'reply to reply 1');

    const a1List = await fresh.api('GET', `/alerts/${a1.prefixId}/comments`);
    expect(a1List.status).toBe(200);
    expect(a1List.body).toEqual({ data: [onA1[1], onA1[0]], has_more: false, total_count: 2 });
    expect((await fresh.api('GET', `/alerts/${a2.id}/comments`)).body).toEqual({ data: [onA2], has_more: false, total_count: 1 });
    expect((await fresh.api('GET', `/broadcasts/${b1.prefixId}/comments`)).body).toEqual({ data: [onB1], has_more: false, total_count: 1 });
    expect((await fresh.api('GET', `/comments/${onA1[0]!.prefix_id}/comments`)).body).toEqual({
      data: [replies[1], replies[0]],
      has_more: false,
      total_count: 2,
    });
    expect(ids(await fresh.api('GET', `/comments/${replies[0]!.id}/comments`))).toEqual([grandchild.id]);
    expect((await fresh.api('GET', `/comments/${standalone.id}/comments`)).body).toEqual({ data: [], has_more: false, total_count: 0 });

    // A parent with no comments yet is an empty list, not a 404.
    const quiet = await createEntity('BROADCAST', fresh.accountId, { title: 'quiet' });
    expect((await fresh.api('GET', `/broadcasts/${quiet.id}/comments`)).body).toEqual({ data: [], has_more: false, total_count: 0 });

    // GET /comments has every comment of the account, whatever it is attached to.
    const all = await fresh.api('GET', '/comments?limit=100');
    expect(all.body.total_count).toBe(8);
    expect(new Set(ids(all))).toEqual(new Set([...onA1, onA2, onB1, standalone, ...replies, grandchild].map((c) => c.id)));
    expect(bodies(all)[0]).toBe('reply to reply 1');
  });

  it('pages and sorts a thread chronologically with the list engine', async () => {
    const fresh = await newAccount('Paging');
    const parent = await newAlert(fresh, 'busy', 'low');
    for (let i = 1; i <= 12; i++) await comment(fresh, `/alerts/${parent.id}/comments`, `update ${i}`);
    const first = await fresh.api('GET', `/alerts/${parent.id}/comments`);
    expect(first.body.total_count).toBe(12);
    expect(first.body.has_more).toBe(true);
    expect(bodies(first)).toEqual(['update 12', 'update 11', 'update 10', 'update 9', 'update 8', 'update 7', 'update 6', 'update 5', 'update 4', 'update 3']);
    const chronological = await fresh.api('GET', `/alerts/${parent.id}/comments?direction=asc&limit=5&page=3`);
    expect(chronological.body).toMatchObject({ has_more: false, total_count: 12 });
    expect(bodies(chronological)).toEqual(['update 11', 'update 12']);
    expect(bodies(await fresh.api('GET', `/alerts/${parent.id}/comments?sort=created_at&direction=asc&limit=2`))).toEqual(['update 1', 'update 2']);
    const bad = await fresh.api('GET', `/alerts/${parent.id}/comments?limit=0`);
    expect(bad.status).toBe(422);
    expect(errorMessages(bad)).toEqual(['limit must be an integer between 1 and 100']);
  });
});

describe('authors', () => {
  it("records the member who wrote the comment, not the account's admin, and lets members read", async () => {
    const memberKey = await createMemberKey(acme);
    const key = await findApiKey(memberKey);
    const memberName = (await getUser(key!.userId))!.name;
    expect(key!.accountUserId).not.toBe(acme.adminAccountUserId);
    expect(memberName).not.toBe(acmeAdminName);

    const asMember = (method: string, path: string, body?: unknown) => request<Comment>(method, `/api/v4${path}`, { key: memberKey, body });
    const standalone = await asMember('POST', '/comments', { body: 'Member note' });
    const onAlert = await asMember('POST', `/alerts/${alert.prefixId}/comments`, { body: 'On it', account_user_id: acme.adminAccountUserId });
    const onBroadcast = await asMember('POST', `/broadcasts/${broadcast.id}/comments`, { body: 'Will attend' });
    const onComment = await asMember('POST', `/comments/${standalone.body.id}/comments`, { body: 'Adding detail' });
    for (const reply of [standalone, onAlert, onBroadcast, onComment]) {
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ account_user_id: key!.accountUserId, created_by_name: memberName });
    }

    // Members read every list and object.
    expect((await asMember('GET', `/comments/${onAlert.body.prefix_id}`)).body).toEqual(onAlert.body);
    expect((await asMember('GET', `/alerts/${alert.id}/comments?limit=100`)).status).toBe(200);
    expect((await asMember('GET', `/broadcasts/${broadcast.id}/comments?limit=100`)).status).toBe(200);
    expect(ids((await asMember('GET', `/comments/${standalone.body.id}/comments`)) as Reply)).toEqual([onComment.body.id]);
    const mine = await asMember('GET', `/comments?account_user_id=${key!.accountUserId}`);
    expect(mine.status).toBe(200);
    expect(new Set(ids(mine as Reply))).toEqual(new Set([standalone, onAlert, onBroadcast, onComment].map((r) => r.body.id)));
  });

  it('keeps created_by_name as it was when the comment was written', async () => {
    const memberKey = await createMemberKey(acme);
    const key = (await findApiKey(memberKey))!;
    const before = await request<Comment>('POST', '/api/v4/comments', { key: memberKey, body: { body: 'Before the rename' } });
    const oldName = before.body.created_by_name;
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: userKey(key.userId),
        UpdateExpression: 'SET #n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'Renamed Person' },
      }),
    );
    const after = await request<Comment>('POST', '/api/v4/comments', { key: memberKey, body: { body: 'After the rename' } });
    expect(after.body.created_by_name).toBe('Renamed Person');
    expect(after.body.account_user_id).toBe(before.body.account_user_id);
    expect((await acme.api('GET', `/comments/${before.body.id}`)).body.created_by_name).toBe(oldName);
    expect(oldName).not.toBe('Renamed Person');
  });
});

describe('list filters', () => {
  let fresh: TestAccount;
  let memberAccountUserId: string;
  let parentAlert: Parent;
  let parentBroadcast: EntityItem;
  const byBody = new Map<string, Comment>();

  beforeAll(async () => {
    fresh = await newAccount('Filters');
    const memberKey = await createMemberKey(fresh);
    memberAccountUserId = (await findApiKey(memberKey))!.accountUserId;
    parentAlert = await newAlert(fresh, 'filters alert', 'low');
    parentBroadcast = await createEntity('BROADCAST', fresh.accountId, { title: 'filters broadcast' });
    const add = async (key: string, path: string, body: string) => {
      const reply = await request<Comment>('POST', `/api/v4${path}`, { key, body: { body } });
      if (reply.status !== 201) throw new Error(reply.text);
      byBody.set(body, reply.body);
    };
    await add(fresh.adminKey, `/alerts/${parentAlert.id}/comments`, 'Disk at 95% on DB-1');
    await add(memberKey, `/alerts/${parentAlert.id}/comments`, 'Cleared old WAL files');
    await add(memberKey, `/broadcasts/${parentBroadcast.id}/comments`, 'Joining the bridge');
    await add(fresh.adminKey, '/comments', 'Handover: db disk watch');
    await add(memberKey, `/comments/${byBody.get('Disk at 95% on DB-1')!.id}/comments`, 'db-1 back to 60%');
  });

  const list = (qs: string) => fresh.api('GET', `/comments${qs}`);
  const sortedBodies = async (qs: string) => bodies(await list(qs)).sort();

  it('filters on account_user_id', async () => {
    expect(await sortedBodies(`?account_user_id=${memberAccountUserId}`)).toEqual(['Cleared old WAL files', 'Joining the bridge', 'db-1 back to 60%']);
    expect(await sortedBodies(`?account_user_id=${fresh.adminAccountUserId}`)).toEqual(['Disk at 95% on DB-1', 'Handover: db disk watch']);
    expect(await sortedBodies(`?account_user_id=${memberAccountUserId}&ops=account_user_id:ne`)).toEqual(['Disk at 95% on DB-1', 'Handover: db disk watch']);
  });

  it('filters on commentable_type, including null for standalone comments, and on commentable_id and parent_id', async () => {
    expect(await sortedBodies('?commentable_type=Alert')).toEqual(['Cleared old WAL files', 'Disk at 95% on DB-1']);
    expect(await sortedBodies('?commentable_type=Broadcast')).toEqual(['Joining the bridge']);
    expect(await sortedBodies('?commentable_type=Comment')).toEqual(['db-1 back to 60%']);
    expect(await sortedBodies('?commentable_type=null')).toEqual(['Handover: db disk watch']);
    expect(await sortedBodies(`?commentable_id=${parentBroadcast.id}`)).toEqual(['Joining the bridge']);
    expect(await sortedBodies(`?parent_id=${byBody.get('Disk at 95% on DB-1')!.id}`)).toEqual(['db-1 back to 60%']);
    expect(await sortedBodies(`?commentable_type=Alert&account_user_id=${memberAccountUserId}`)).toEqual(['Cleared old WAL files']);
  });

  it('searches body with q, case-insensitively, on every list', async () => {
    expect(await sortedBodies('?q=DISK')).toEqual(['Disk at 95% on DB-1', 'Handover: db disk watch']);
    expect(await sortedBodies('?q=db-1')).toEqual(['Disk at 95% on DB-1', 'db-1 back to 60%']);
    expect(await sortedBodies('?q=nothing-like-this')).toEqual([]);
    expect(bodies(await fresh.api('GET', `/alerts/${parentAlert.prefixId}/comments?q=wal`))).toEqual(['Cleared old WAL files']);
    expect(bodies(await fresh.api('GET', `/alerts/${parentAlert.id}/comments?account_user_id=${fresh.adminAccountUserId}`))).toEqual([
      'Disk at 95% on DB-1',
    ]);
    expect((await list('?body=Joining&ops=body:beginsWith')).body.data).toEqual([byBody.get('Joining the bridge')]);
  });

  it('rejects an unknown sort attribute with 422', async () => {
    const reply = await list('?sort=shoe_size');
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['sort: shoe_size is not an attribute of this resource']);
  });
});

describe('unsupported operations', () => {
  it('405 with Allow: GET for PUT and DELETE on a comment, leaving it unchanged', async () => {
    const c = await comment(acme, '/comments', 'Immutable');
    for (const method of ['PUT', 'DELETE']) {
      const reply = await request(method, `/api/v4/comments/${c.id}`, { key: acme.adminKey, body: { body: 'changed' } });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('GET');
      expect(errorMessages(reply)).toEqual([`${method} is not supported on /api/v4/comments/${c.id}; allowed: GET`]);
    }
    expect((await acme.api('GET', `/comments/${c.id}`)).body).toEqual(c);
  });

  it('405 with Allow: POST, GET for DELETE on a comment list', async () => {
    for (const path of ['/api/v4/comments', `/api/v4/alerts/${alert.id}/comments`, `/api/v4/comments/cmt_abcdefghijkl/comments`]) {
      const reply = await request('DELETE', path, { key: acme.adminKey });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('POST, GET');
    }
  });
});
