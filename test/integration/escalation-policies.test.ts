// Escalation policies through the gateway: fields, layer editing through escalation_layers_attributes,
// reassign targets, team_ids, deletes and lists.
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteEntity, getEntity } from '#lib/db/repository.ts';
import { DomainError } from '#lib/errors.ts';
import { errorResponse } from '#lib/http/responses.ts';
import { LAYER_PALETTE } from '#lib/escalation-policies/layers.ts';
import { addAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;

const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const LAYER_SHAPE = {
  id: expect.stringMatching(/^[0-9A-Z]{26}$/),
  prefix_id: expect.stringMatching(/^lyr_[A-Za-z0-9]{12}$/),
  account_id: expect.any(String),
  layer: expect.any(Number),
  timeout: expect.any(Number),
  timeout_unit: expect.any(String),
  color_hex: expect.stringMatching(/^#[0-9A-F]{6}$/),
};

interface Layer {
  id: string;
  prefix_id: string;
  layer: number;
  timeout: number;
  timeout_unit: string;
  color_hex: string;
}
const summary = (layers: Layer[]) => layers.map((l) => [l.layer, l.timeout, l.timeout_unit]);

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Policies Acme'), newAccount('Policies Globex')]);
});

describe('creating a policy', () => {
  it('creates with only a name: repeat 0, no reassign targets, the default layers of 5, 10 and 15 minutes', async () => {
    const reply = await acme.api('POST', '/escalation_policies', { name: 'Default', meta: { owner: 'sre' }, team_ids: ['x'], escalation_layers: [] });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^esc_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Default',
      repeat: 0,
      reassign_team_ids: [],
      reassign_account_user_ids: [],
      escalation_layers: [LAYER_SHAPE, LAYER_SHAPE, LAYER_SHAPE],
      team_ids: [],
      meta: { owner: 'sre' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(summary(reply.body.escalation_layers)).toEqual([
      [1, 5, 'minutes'],
      [2, 10, 'minutes'],
      [3, 15, 'minutes'],
    ]);
    expect(reply.body.escalation_layers.map((l: Layer) => l.color_hex)).toEqual(LAYER_PALETTE.slice(0, 3));
    expect(reply.body.escalation_layers.every((l: { account_id: string }) => l.account_id === acme.accountId)).toBe(true);
    expect((await acme.api('GET', `/escalation_policies/${reply.body.prefix_id}`)).body).toEqual(reply.body);
  });

  it('creates the layers given, sorted by number, numbering those without a number after the highest', async () => {
    const reply = await acme.api('POST', '/escalation_policies', {
      name: 'Custom',
      repeat: 3,
      escalation_layers_attributes: [
        { layer: 4, timeout: 2, timeout_unit: 'hours', color_hex: '#00ff7f' },
        { layer: 1, timeout: 1, timeout_unit: 'days' },
        { timeout: 30 },
        { timeout: 99, _destroy: true },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.repeat).toBe(3);
    expect(summary(reply.body.escalation_layers)).toEqual([
      [1, 1, 'days'],
      [4, 2, 'hours'],
      [5, 30, 'minutes'],
    ]);
    expect(reply.body.escalation_layers.map((l: Layer) => l.color_hex)).toEqual([LAYER_PALETTE[0], '#00FF7F', LAYER_PALETTE[4]]);
    const ids = reply.body.escalation_layers.map((l: Layer) => l.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('stores reassign targets given by id or prefix_id as canonical ids without repeats', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Escalation target' })).body;
    const person = await addAccountUser(acme);
    const reply = await acme.api('POST', '/escalation_policies', {
      name: 'Reassigning',
      reassign_team_ids: [team.prefix_id, team.id],
      reassign_account_user_ids: [person.prefix_id, acme.adminAccountUserId],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ reassign_team_ids: [team.id], reassign_account_user_ids: [person.id, acme.adminAccountUserId] });
  });

  it('422 naming the field: name missing, blank or not a string', async () => {
    const missing = await acme.api('POST', '/escalation_policies', { repeat: 1 });
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['name is required']);
    expect(errorMessages(await acme.api('POST', '/escalation_policies', { name: '' }))).toEqual(["name can't be blank"]);
    expect(errorMessages(await acme.api('POST', '/escalation_policies', { name: ['x'] }))).toEqual(['name must be a string']);
  });

  it('422 for repeat outside 0..3 or not an integer', async () => {
    for (const repeat of [-1, 4, 1.5, '2', null]) {
      const reply = await acme.api('POST', '/escalation_policies', { name: 'R', repeat });
      expect(reply.status).toBe(422);
      expect(errorMessages(reply)).toEqual(['repeat must be an integer between 0 and 3']);
    }
  });

  it('422 for every invalid layer field, naming the entry', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ timeout: 5, layer: 0 }, 'escalation_layers_attributes[0].layer must be an integer of at least 1'],
      [{ timeout: 5, layer: 1.5 }, 'escalation_layers_attributes[0].layer must be an integer of at least 1'],
      [{ timeout: 5, layer: '1' }, 'escalation_layers_attributes[0].layer must be an integer of at least 1'],
      [{ timeout: 0 }, 'escalation_layers_attributes[0].timeout must be a positive integer'],
      [{ timeout: -5 }, 'escalation_layers_attributes[0].timeout must be a positive integer'],
      [{ timeout: '5m' }, 'escalation_layers_attributes[0].timeout must be a positive integer'],
      [{ timeout: 2.5 }, 'escalation_layers_attributes[0].timeout must be a positive integer'],
      [{ layer: 1 }, 'escalation_layers_attributes[0].timeout is required'],
      [{ timeout: 31, timeout_unit: 'days' }, 'escalation_layers_attributes[0].timeout must be at most 30 days (43200 minutes, 720 hours or 30 days)'],
      [{ timeout: 5, timeout_unit: 'seconds' }, 'escalation_layers_attributes[0].timeout_unit must be one of minutes, hours, days'],
      [{ timeout: 5, color_hex: 'red' }, 'escalation_layers_attributes[0].color_hex must be a colour like #1E88E5'],
      [{ timeout: 5, color_hex: '#abc' }, 'escalation_layers_attributes[0].color_hex must be a colour like #1E88E5'],
      [{ timeout: 5, _destroy: 'maybe' }, 'escalation_layers_attributes[0]._destroy must be true or false'],
      [{ timeout: 5, id: 'lyr_abcdefghijkl' }, 'escalation_layers_attributes[0].id lyr_abcdefghijkl is not a layer of this escalation policy'],
    ];
    for (const [layer, message] of cases) {
      const reply = await acme.api('POST', '/escalation_policies', { name: 'Bad layer', escalation_layers_attributes: [layer] });
      expect(reply.status, JSON.stringify(layer)).toBe(422);
      expect(errorMessages(reply)).toEqual([message]);
    }
  });

  it('422 for no layers, duplicate numbers, too many layers, and a list that is not a list', async () => {
    expect(errorMessages(await acme.api('POST', '/escalation_policies', { name: 'P', escalation_layers_attributes: [] }))).toEqual([
      'escalation_layers_attributes must add at least one layer',
    ]);
    expect(
      errorMessages(await acme.api('POST', '/escalation_policies', { name: 'P', escalation_layers_attributes: [{ layer: 2, timeout: 1 }, { layer: 2, timeout: 2 }] })),
    ).toEqual(['escalation_layers_attributes gives layer number 2 to 2 layers; layer numbers must be unique']);
    const many = Array.from({ length: 21 }, () => ({ timeout: 1 }));
    expect(errorMessages(await acme.api('POST', '/escalation_policies', { name: 'P', escalation_layers_attributes: many }))).toEqual([
      'escalation_layers_attributes would give the policy 21 layers; at most 20 are allowed',
    ]);
    expect(errorMessages(await acme.api('POST', '/escalation_policies', { name: 'P', escalation_layers_attributes: { timeout: 1 } }))).toEqual([
      'escalation_layers_attributes must be a list of layers',
    ]);
  });

  it('422 naming the field and the id for unknown reassign targets, including another account’s, and creates nothing', async () => {
    const before = (await acme.api('GET', '/escalation_policies?limit=1')).body.total_count;
    const theirTeam = (await globex.api('POST', '/teams', { name: 'Theirs' })).body;
    const theirPerson = await addAccountUser(globex);
    const reply = await acme.api('POST', '/escalation_policies', {
      name: 'Ghost targets',
      reassign_team_ids: [theirTeam.id, 'tem_abcdefghijkl'],
      reassign_account_user_ids: [theirPerson.prefix_id, UNKNOWN_ULID],
      escalation_layers_attributes: [{ layer: 1 }],
    });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      `reassign_team_ids contains unknown team ${theirTeam.id}`,
      'reassign_team_ids contains unknown team tem_abcdefghijkl',
      `reassign_account_user_ids contains unknown account user ${theirPerson.prefix_id}`,
      `reassign_account_user_ids contains unknown account user ${UNKNOWN_ULID}`,
      'escalation_layers_attributes[0].timeout is required',
    ]);
    expect((await acme.api('GET', '/escalation_policies?limit=1')).body.total_count).toBe(before);
  });
});

describe('editing layers with escalation_layers_attributes', () => {
  it('adds (no id), updates (id or prefix_id) and removes (_destroy) in one request, leaving other layers as they were', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Editable' })).body;
    const [one, two, three] = policy.escalation_layers as Layer[];
    const reply = await acme.api('PUT', `/escalation_policies/${policy.id}`, {
      escalation_layers_attributes: [
        { id: two!.prefix_id, timeout: 20, timeout_unit: 'hours', color_hex: '#101010' },
        { id: three!.id, _destroy: '1' },
        { timeout: 45, layer: 3 },
        { timeout: 1, timeout_unit: 'days' },
      ],
    });
    expect(reply.status).toBe(200);
    const layers = reply.body.escalation_layers as Layer[];
    expect(layers).toHaveLength(4);
    expect(layers[0]).toEqual({ ...one, account_id: acme.accountId });
    expect(layers[1]).toEqual({ ...two, timeout: 20, timeout_unit: 'hours', color_hex: '#101010' });
    expect(layers[2]).toMatchObject({ layer: 3, timeout: 45, timeout_unit: 'minutes', color_hex: LAYER_PALETTE[2] });
    expect(layers[2]!.id).not.toBe(three!.id);
    expect(layers[3]).toMatchObject({ layer: 4, timeout: 1, timeout_unit: 'days', color_hex: LAYER_PALETTE[3] });
    expect((await acme.api('GET', `/escalation_policies/${policy.id}`)).body.escalation_layers).toEqual(layers);
  });

  it('renumbers and re-sorts; swapping two numbers in one request works', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Swap' })).body;
    const [one, two] = policy.escalation_layers as Layer[];
    const reply = await acme.api('PUT', `/escalation_policies/${policy.id}`, {
      escalation_layers_attributes: [
        { id: one!.id, layer: 2 },
        { id: two!.id, layer: 1 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.escalation_layers.map((l: Layer) => [l.id, l.layer, l.timeout])).toEqual([
      [two!.id, 1, 10],
      [one!.id, 2, 5],
      [(policy.escalation_layers as Layer[])[2]!.id, 3, 15],
    ]);
  });

  it('keeps the layers when escalation_layers_attributes is absent or empty', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Stable' })).body;
    const renamed = await acme.api('PUT', `/escalation_policies/${policy.id}`, { name: 'Stable renamed', repeat: 2 });
    expect(renamed.body).toMatchObject({ name: 'Stable renamed', repeat: 2, escalation_layers: policy.escalation_layers });
    const empty = await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [] });
    expect(empty.body.escalation_layers).toEqual(policy.escalation_layers);
  });

  it('422 for an id that is a layer of another policy, for removing every layer, and for a number collision; nothing changes', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Guarded' })).body;
    const other = (await acme.api('POST', '/escalation_policies', { name: 'Other' })).body;
    const foreign = (other.escalation_layers as Layer[])[0]!;
    const wrong = await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: foreign.id, timeout: 1 }] });
    expect(wrong.status).toBe(422);
    expect(errorMessages(wrong)).toEqual([`escalation_layers_attributes[0].id ${foreign.id} is not a layer of this escalation policy`]);
    const all = (policy.escalation_layers as Layer[]).map((l) => ({ id: l.id, _destroy: true }));
    expect(errorMessages(await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: all }))).toEqual([
      'escalation_layers_attributes would remove every layer; a policy needs at least one',
    ]);
    const first = (policy.escalation_layers as Layer[])[0]!;
    expect(errorMessages(await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: first.id, layer: 3 }] }))).toEqual([
      'escalation_layers_attributes gives layer number 3 to 2 layers; layer numbers must be unique',
    ]);
    expect(
      errorMessages(await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: first.id, timeout: 1 }, { id: first.prefix_id, _destroy: true }] })),
    ).toEqual([`escalation_layers_attributes[1].id ${first.prefix_id} names the same layer as escalation_layers_attributes[0]`]);
    expect(errorMessages(await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: first.id, timeout_unit: 'weeks' }] }))).toEqual([
      'escalation_layers_attributes[0].timeout_unit must be one of minutes, hours, days',
    ]);
    expect((await acme.api('GET', `/escalation_policies/${policy.id}`)).body).toEqual(policy);
  });

  it('resets a colour to the palette with color_hex null', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Colours', escalation_layers_attributes: [{ timeout: 5, color_hex: '#000000' }] })).body;
    const layer = (policy.escalation_layers as Layer[])[0]!;
    expect(layer.color_hex).toBe('#000000');
    const reply = await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: layer.id, color_hex: null }] });
    expect(reply.body.escalation_layers[0].color_hex).toBe(LAYER_PALETTE[0]);
  });
});

describe('reading, updating and deleting a policy', () => {
  it('404 for unknown ids and for another account’s policy, on every operation', async () => {
    const mine = (await acme.api('POST', '/escalation_policies', { name: 'Mine' })).body;
    for (const id of [UNKNOWN_ULID, 'esc_abcdefghijkl', 'tem_abcdefghijkl', mine.id, mine.prefix_id]) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const reply = await globex.api(method, `/escalation_policies/${id}`, method === 'PUT' ? { name: 'hijack' } : undefined);
        expect(reply.status, `${method} ${id}`).toBe(404);
        expect(errorMessages(reply)).toEqual(['Escalation policy not found']);
      }
    }
    expect((await acme.api('GET', `/escalation_policies/${mine.id}`)).body.name).toBe('Mine');
  });

  it('replaces reassign lists, validates them, and keeps unchanged fields', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Reassign here' })).body;
    const person = await addAccountUser(acme);
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Lists', repeat: 1, reassign_account_user_ids: [person.id] })).body;
    const reply = await acme.api('PUT', `/escalation_policies/${policy.prefix_id}`, { reassign_team_ids: [team.prefix_id] });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...policy, reassign_team_ids: [team.id], updated_at: expect.any(String) });
    const bad = await acme.api('PUT', `/escalation_policies/${policy.id}`, { reassign_account_user_ids: ['usr_abcdefghijkl'], repeat: 9 });
    expect(bad.status).toBe(422);
    expect(errorMessages(bad)).toEqual(['repeat must be an integer between 0 and 3']);
    const unknown = await acme.api('PUT', `/escalation_policies/${policy.id}`, { reassign_account_user_ids: ['usr_abcdefghijkl'] });
    expect(errorMessages(unknown)).toEqual(['reassign_account_user_ids contains unknown account user usr_abcdefghijkl']);
    const cleared = await acme.api('PUT', `/escalation_policies/${policy.id}`, { reassign_account_user_ids: [], reassign_team_ids: [] });
    expect(cleared.body).toMatchObject({ reassign_account_user_ids: [], reassign_team_ids: [], repeat: 1, name: 'Lists' });
  });

  it('a team delete that read the team before a policy started reassigning to it fails instead of leaving a dangling id', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Racing target' })).body;
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Racing reassign' })).body;
    const stale = await getEntity('TEAM', acme.accountId, team.id);
    expect((await acme.api('PUT', `/escalation_policies/${policy.id}`, { reassign_team_ids: [team.id] })).status).toBe(200);
    const failure = await deleteEntity(stale).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DomainError);
    expect(errorResponse(failure).statusCode).toBe(409);
    expect((await acme.api('GET', `/teams/${team.id}`)).status).toBe(200);
  });

  it('deletes a policy no team uses; 409 naming the team for one in use', async () => {
    const spare = (await acme.api('POST', '/escalation_policies', { name: 'Spare' })).body;
    const deleted = await acme.api('DELETE', `/escalation_policies/${spare.prefix_id}`);
    expect(deleted.status).toBe(204);
    expect((await acme.api('GET', `/escalation_policies/${spare.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/escalation_policies/${spare.id}`)).status).toBe(404);

    const team = (await acme.api('POST', '/teams', { name: 'Users of policy' })).body;
    const refused = await acme.api('DELETE', `/escalation_policies/${team.escalation_policy_id}`);
    expect(refused.status).toBe(409);
    expect(errorMessages(refused)).toEqual(['Escalation policy is the active escalation policy of team Users of policy; give the team another escalation policy first']);
  });

  it('lets a member read and answers 403 on changes', async () => {
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Read only' })).body;
    const key = await createMemberKey(acme);
    const as = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key, body });
    expect((await as('GET', '/escalation_policies')).status).toBe(200);
    expect((await as('GET', `/escalation_policies/${policy.id}`)).body.name).toBe('Read only');
    for (const [method, path, body] of [
      ['POST', '/escalation_policies', { name: 'Nope' }],
      ['PUT', `/escalation_policies/${policy.id}`, { name: 'Nope' }],
      ['DELETE', `/escalation_policies/${policy.id}`, undefined],
    ] as const) {
      const reply = await as(method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
  });
});

describe('listing policies', () => {
  let fresh: TestAccount;
  let team: { id: string; escalation_policy_id: string };

  beforeAll(async () => {
    fresh = await newAccount('Policies list');
    await fresh.api('POST', '/escalation_policies', { name: 'Alpha', repeat: 1, escalation_layers_attributes: [{ timeout: 2, timeout_unit: 'hours' }] });
    await fresh.api('POST', '/escalation_policies', { name: 'Bravo', repeat: 3 });
    team = (await fresh.api('POST', '/teams', { name: 'Charlie' })).body;
  });

  const names = async (qs: string) => {
    const reply = await fresh.api('GET', `/escalation_policies${qs}`);
    expect(reply.status, qs).toBe(200);
    return reply.body.data.map((p: { name: string }) => p.name);
  };

  it('lists newest first in the envelope, with team_ids', async () => {
    const reply = await fresh.api('GET', '/escalation_policies');
    expect(reply.body).toMatchObject({ has_more: false, total_count: 3 });
    expect(reply.body.data.map((p: { name: string; team_ids: string[] }) => [p.name, p.team_ids])).toEqual([
      ['Charlie Escalation Policy', [team.id]],
      ['Bravo', []],
      ['Alpha', []],
    ]);
  });

  it('filters on name, repeat, team_ids and layer fields, and searches with q', async () => {
    expect(await names('?name=Bravo')).toEqual(['Bravo']);
    expect(await names('?repeat=0')).toEqual(['Charlie Escalation Policy']);
    expect(await names('?repeat=1&ops=repeat:gte&sort=name')).toEqual(['Alpha', 'Bravo']);
    expect(await names(`?team_ids=${team.id}`)).toEqual(['Charlie Escalation Policy']);
    expect(await names(`?id=${team.escalation_policy_id}`)).toEqual(['Charlie Escalation Policy']);
    expect(await names('?escalation_layers.timeout_unit=hours')).toEqual(['Alpha']);
    expect(await names('?escalation_layers.timeout=15&sort=name')).toEqual(['Bravo', 'Charlie Escalation Policy']);
    expect(await names('?q=escalation')).toEqual(['Charlie Escalation Policy']);
    expect(await names('?sort=repeat&direction=desc')).toEqual(['Bravo', 'Alpha', 'Charlie Escalation Policy']);
    expect((await fresh.api('GET', '/escalation_policies?repeat=many')).status).toBe(422);
  });
});
