import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRouting, type RoutingRouter } from '#lib/routing-engine/index.ts';

// Rules: docs/routing.md, "Nesting, cycles and limits" and "Duplicates and delays".

const ROUTERS = ['a', 'b', 'c', 'd', 'e'];
const TEAMS = ['t1', 't2', 't3'];
const MAX_DEPTH = 10;

/** A random router graph: each router either assigns (routers and teams, one delay) or, disabled, goes to its default team. */
const graph = fc.record({
  routers: fc.tuple(
    ...ROUTERS.map(() =>
      fc.record({
        enabled: fc.boolean(),
        routers: fc.subarray(ROUTERS, { maxLength: 3 }),
        teams: fc.subarray(TEAMS, { maxLength: 2 }),
        delayMinutes: fc.integer({ min: 0, max: 3 }),
        defaultTeam: fc.constantFrom(...TEAMS),
      }),
    ),
  ),
  start: fc.subarray(ROUTERS, { minLength: 1, maxLength: 2 }),
});
type Graph = typeof graph extends fc.Arbitrary<infer T> ? T : never;

function routersOf(g: Graph): RoutingRouter[] {
  return g.routers.map((r, i) => {
    const receivers = [...r.routers.map((id) => `rtr_${id}`), ...r.teams.map((id) => `tem_${id}`)];
    const rules =
      receivers.length === 0
        ? ''
        : `rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [${receivers.join(', ')}], delay: ${r.delayMinutes}m}]`;
    const name = ROUTERS[i] as string;
    return {
      id: name,
      prefix_id: `rtr_${name}`,
      name,
      enabled: r.enabled,
      rules,
      default_receiver_team_id: `tem_${r.defaultTeam}`,
      default_receiver_account_user_id: null,
      default_receiver_router_id: null,
    };
  });
}

/** The model: every team reachable through at most 10 routers, at the smallest summed delay. */
function expectedTeams(g: Graph): Map<string, number> {
  const best = new Map<string, number>();
  const reach = (name: string, depth: number, delayMs: number): void => {
    if (depth > MAX_DEPTH) return;
    const r = g.routers[ROUTERS.indexOf(name)]!;
    const add = (team: string, ms: number): void => {
      best.set(`tem_${team}`, Math.min(best.get(`tem_${team}`) ?? Infinity, ms));
    };
    const assigns = r.enabled && r.routers.length + r.teams.length > 0;
    if (!assigns) {
      add(r.defaultTeam, delayMs);
      return;
    }
    const next = delayMs + r.delayMinutes * 60_000;
    r.routers.forEach((id) => reach(id, depth + 1, next));
    r.teams.forEach((team) => add(team, next));
  };
  g.start.forEach((name) => reach(name, 1, 0));
  return best;
}

describe('resolveRouting on random router graphs', () => {
  it('terminates, escalates each team once at its smallest delay, and stays within the limits', async () => {
    await fc.assert(
      fc.asyncProperty(graph, async (g) => {
        const routers = routersOf(g);
        const loads: string[] = [];
        const outcome = await resolveRouting({ alert: { title: 't', urgency: 'high', tag_list: [], meta: {} }, destinations: { router_ids: g.start }, now: new Date(0) }, async (id) => {
          loads.push(id);
          return routers.find((r) => r.id === id || r.prefix_id === id);
        });
        const keys = outcome.receivers.map((r) => `${r.kind}:${r.id}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(loads).size).toBe(loads.length);
        expect(outcome.status === 'open').toBe(outcome.receivers.length > 0);
        const runs = outcome.log.filter((e) => e.message.includes(', rule 1, assigned') || e.message.includes('is disabled') || e.message.includes('no rule matched'));
        expect(new Set(runs.map((e) => e.router_id)).size).toBeLessThanOrEqual(ROUTERS.length);
        const capped = outcome.dropped.some((d) => d.reason.startsWith('The alert reached more than 100 routers'));
        const got = new Map(outcome.receivers.map((r) => [r.id, r.delay_ms]));
        const expected = expectedTeams(g);
        if (!capped) expect(got).toEqual(expected);
        // Past the evaluation limit some routes are cut: what is paged is still reachable, never earlier than possible.
        for (const [team, delay] of got) expect(delay).toBeGreaterThanOrEqual(expected.get(team) ?? Infinity);
      }),
      { numRuns: 150 },
    );
  });
});
