// The reference command-line client's broadcast commands (create, list, show, delete), replayed request by request
// as the client sends them (its headers, its bodies: both destination lists always present, `description` left out
// when not given; `limit`/`offset` always in the list query) and asserting every field it reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { addTeam, newAccount, request, type TestAccount } from './helpers.ts';
import { CLI_HEADERS, referenceCli } from './reference-cli.ts';

let account: TestAccount;
const cli = referenceCli(() => account.adminKey);

beforeAll(async () => {
  account = await newAccount('CLI broadcasts');
});

describe('reference CLI: broadcasts', () => {
  it('create (users and teams, users only; no destination is refused with errors it prints), list, show, delete', async () => {
    const team = await addTeam(account, 'CLI team');
    // broadcasts create --title … --description … --user-id … --team-id …
    const full = await cli('POST', '/broadcasts', { title: 'DB maintenance tonight', description: '22:00-23:00 UTC', destination_account_user_ids: [account.adminAccountUserId], destination_team_ids: [team.prefix_id] });
    expect(full.status, full.text).toBe(201);
    expect(full.headers.get('warning')).toBeNull();
    expect(typeof full.body.id).toBe('string');
    // broadcasts create --title … --user-id …
    const usersOnly = await cli('POST', '/broadcasts', { title: 'Users only', destination_account_user_ids: [account.adminAccountUserId], destination_team_ids: [] });
    expect(usersOnly.status, usersOnly.text).toBe(201);
    // broadcasts create --title … (no destination): the client prints `errors`.
    const none = await cli('POST', '/broadcasts', { title: 'Nobody', destination_account_user_ids: [], destination_team_ids: [] });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ message: 'destination_team_ids or destination_account_user_ids must name at least one destination' }]);

    // broadcasts list --limit 1 (offset 0), then --offset 1: data, total_count; id, title, status, created_at of each.
    const first = await cli('GET', '/broadcasts?limit=1&offset=0');
    expect(first.status).toBe(200);
    expect(first.body.total_count).toBe(2);
    expect(first.body.data.map((b: Record<string, unknown>) => [b.id, b.title])).toEqual([[usersOnly.body.id, 'Users only']]);
    for (const b of first.body.data) {
      expect(['queued', 'open', 'closed', 'errored']).toContain(b.status);
      expect(b.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    const second = await cli('GET', '/broadcasts?limit=1&offset=1');
    expect(second.body.data.map((b: Record<string, unknown>) => b.id)).toEqual([full.body.id]);

    // broadcasts show <id>: id, title, description, status.
    const shown = await cli('GET', `/broadcasts/${full.body.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: full.body.id, title: 'DB maintenance tonight', description: '22:00-23:00 UTC' });
    expect(['queued', 'open', 'closed', 'errored']).toContain(shown.body.status);

    // broadcasts delete <id> --force: any 2xx, an empty body is fine; then show and delete print the 404's errors.
    const deleted = await cli('DELETE', `/broadcasts/${full.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await cli('GET', `/broadcasts/${full.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.errors).toEqual([{ message: 'Broadcast not found' }]);
    expect((await cli('DELETE', `/broadcasts/${full.body.id}`)).body.errors).toEqual([{ message: 'Broadcast not found' }]);
  });

  it('prints the 401 errors of a bad key', async () => {
    const reply = await request('GET', '/api/v4/broadcasts?limit=10&offset=0', { key: 'bad', headers: CLI_HEADERS });
    expect(reply.status).toBe(401);
    expect(reply.body.errors).toEqual([{ message: 'Invalid API key' }]);
  });
});
