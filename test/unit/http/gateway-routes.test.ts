// The gateway's routes (one ANY route per path, a method route per intake row) and the rule every function applies to
// what they deliver: each request reaches the function of the row the route table gives it, or is answered as the
// fallback answered before (docs/decisions/0031-api-routes-in-a-nested-stack.md).
import { describe, expect, it } from 'vitest';
import { GATEWAY_ROUTES, gatewayRoutes, rowOfEvent, selectGatewayRoute } from '#lib/http/gateway-routes.ts';
import { findRoute, isIntake, ROUTES, type Route } from '#lib/http/routes.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

/** Concrete paths for every path of the table, with parameter values that collide with literals too. */
const SAMPLE_PATHS = [...new Set(ROUTES.map((r) => r.path))].flatMap((path) =>
  ['x_1', 'time_zones', 'test', '%E0%A4%A'].map((value) => path.replace(/\{[^}]+\}/g, value)),
);

const eventFor = (method: string, path: string) => {
  const selected = selectGatewayRoute(method, path);
  return selected && { selected, event: { routeKey: selected.route.key, requestContext: { http: { method, path } } } };
};

describe('the gateway routes', () => {
  it('are one ANY route per path of the table and a method route per intake row, keys unique', () => {
    const keys = GATEWAY_ROUTES.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(GATEWAY_ROUTES.filter((r) => r.intake).map((r) => r.key)).toEqual(ROUTES.filter(isIntake).map((r) => `${r.method} ${r.path}`));
    expect(GATEWAY_ROUTES.filter((r) => !r.intake).map((r) => r.key)).toEqual([...new Set(ROUTES.filter((r) => !isIntake(r)).map((r) => `ANY ${r.path}`))]);
    expect(GATEWAY_ROUTES.length).toBeLessThan(ROUTES.length);
  });

  it('make every route of the webhook an intake route, and let another group opt in', () => {
    for (const row of ROUTES.filter((r) => r.group === 'webhook')) expect(isIntake(row)).toBe(true);
    const optIn: Route = { method: 'POST', path: '/api/v4/alerts/ingest', group: 'alerts', role: 'member', intake: true };
    expect(gatewayRoutes([...ROUTES, optIn]).find((r) => r.path === optIn.path)).toMatchObject({ key: 'POST /api/v4/alerts/ingest', intake: true });
  });

  it('refuse a path whose rows name two groups (one ANY route serves one function)', () => {
    const clash: Route = { method: 'POST', path: '/api/v4/alerts/{id}', group: 'comments', role: 'member' };
    expect(() => gatewayRoutes([...ROUTES, clash])).toThrow(/\/api\/v4\/alerts\/\{id\} has rows of alerts and comments/);
  });

  it('send a path no route matches, or another method on an intake path, to $default', () => {
    expect(selectGatewayRoute('GET', '/nowhere')).toBeUndefined();
    expect(selectGatewayRoute('GET', '/api/v4/alerts/x/y/z')).toBeUndefined();
    expect(selectGatewayRoute('PUT', '/integration/x')).toBeUndefined();
    expect(selectGatewayRoute('POST', '/integration/x')).toMatchObject({ route: { key: 'POST /integration/{id}' }, params: { id: 'x' } });
    expect(selectGatewayRoute('PATCH', '/api/v4/alerts/a_1')).toMatchObject({ route: { key: 'ANY /api/v4/alerts/{id}', group: 'alerts' }, params: { id: 'a_1' } });
  });
});

describe('what a function does with what the gateway delivers', () => {
  it('serves the row the route table gives the request, or nothing (the fallback’s 404/405) when the table gives none, for every method on every path', () => {
    let compared = 0;
    for (const path of SAMPLE_PATHS) {
      for (const method of METHODS) {
        const found = findRoute(method, path);
        const delivered = eventFor(method, path);
        // Before: a request reached a group's function exactly when the table gave it a row; else $default's fallback.
        const before = found && 'route' in found ? found.route : undefined;
        if (!delivered) {
          expect(before, `${method} ${path}`).toBeUndefined();
          continue;
        }
        const row = rowOfEvent(delivered.event);
        expect(row, `${method} ${path}`).toBe(before);
        if (row) expect(row.group, `${method} ${path}`).toBe(delivered.selected.route.group);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(SAMPLE_PATHS.length * 2);
  });

  it('takes the table’s own match when the gateway chose a more specific path without the method', () => {
    const delivered = eventFor('PUT', '/api/v4/events/time_zones')!;
    expect(delivered.selected.route.key).toBe('ANY /api/v4/events/time_zones');
    expect(rowOfEvent(delivered.event)).toMatchObject({ method: 'PUT', path: '/api/v4/events/{id}' });
  });

  it('reads a method route key as it is (intake rows, and events built before the ANY routes)', () => {
    expect(rowOfEvent({ routeKey: 'GET /integration/{id}', requestContext: { http: { method: 'GET', path: '/integration/x' } } })).toMatchObject({ group: 'webhook' });
    expect(rowOfEvent({ routeKey: 'GET /api/v4/alerts', requestContext: { http: { method: 'GET', path: '/api/v4/alerts' } } })).toMatchObject({ group: 'alerts' });
    expect(rowOfEvent({ routeKey: '$default', requestContext: { http: { method: 'GET', path: '/api/v4/teams' } } })).toMatchObject({ group: 'teams' });
    expect(rowOfEvent({ routeKey: 'ANY /api/v4/teams', requestContext: { http: { method: 'PATCH', path: '/api/v4/teams' } } })).toBeUndefined();
  });
});
