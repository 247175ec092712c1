import { describe, expect, it } from 'vitest';
import { findRoute, ROUTES, type HttpMethod } from '#lib/http/routes.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The table read the plain way: every row matched against the path's text. findRoute must answer the same. */
function referenceFind(method: string, path: string) {
  const matching = ROUTES.flatMap((route) => {
    const want = route.path.split('/');
    const got = path.split('/');
    if (want.length !== got.length) return [];
    const params: Record<string, string> = {};
    for (let i = 0; i < want.length; i++) {
      if (want[i]!.startsWith('{')) {
        if (got[i] === '') return [];
        params[want[i]!.slice(1, -1)] = decodeURIComponent(got[i]!);
      } else if (want[i] !== got[i]) return [];
    }
    return [{ route, params }];
  });
  if (matching.length === 0) return undefined;
  const literals = (path: string) => path.split('/').filter((s) => !s.startsWith('{')).length;
  const forMethod = matching.filter((m) => m.route.method === method).sort((a, b) => literals(b.route.path) - literals(a.route.path));
  return forMethod[0] ?? { allowed: [...new Set(matching.map((m) => m.route.method))] };
}

describe('findRoute over the compiled table', () => {
  const paths = [...new Set(ROUTES.map((r) => r.path))].flatMap((path) => [
    path.replace(/\{[^}]+\}/g, 'x_1'),
    path.replace(/\{[^}]+\}/g, 'time_zones'),
    path.replace(/\{[^}]+\}/g, 'test'),
    `${path.replace(/\{[^}]+\}/g, 'a')}/extra`,
  ]);

  it('answers every method on every route path exactly as matching each row in turn does', () => {
    let compared = 0;
    for (const path of paths) {
      for (const method of METHODS) {
        expect(findRoute(method, path), `${method} ${path}`).toEqual(referenceFind(method, path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(ROUTES.length * 4);
  });

  it('prefers literal segments over parameters and lists other methods in table order for a 405', () => {
    const timeZones = ROUTES.find((r) => r.path.endsWith('/events/time_zones'))!.path;
    const eventPath = timeZones.replace('time_zones', '{id}');
    const literal = findRoute('GET', timeZones);
    expect(literal && 'route' in literal ? literal.route.path : literal).toBe(timeZones);
    const param = findRoute('GET', eventPath.replace('{id}', 'evt_1'));
    expect(param && 'route' in param ? [param.route.path, param.params] : param).toEqual([eventPath, { id: 'evt_1' }]);
    const alertPath = ROUTES.find((r) => r.path.endsWith('/alerts/{id}'))!.path;
    const methods = ROUTES.filter((r) => r.path === alertPath).map((r) => r.method);
    expect(methods.length).toBeGreaterThan(1);
    expect(findRoute('PATCH', alertPath.replace('{id}', 'abc'))).toEqual({ allowed: [...new Set(methods)] });
    expect(findRoute('GET', '/nowhere/at/all/here/x')).toBeUndefined();
    expect(findRoute('GET', alertPath.replace('{id}', ''))).toBeUndefined();
  });
});
