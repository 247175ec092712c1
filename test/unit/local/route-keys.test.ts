// API Gateway HTTP API's route selection as bundle mode's gateway applies it (lib/local/route-keys.ts).
import { describe, expect, it } from 'vitest';
import { compileRouteKeys, selectRoute } from '#lib/local/route-keys.ts';

const routes = compileRouteKeys([
  '$default',
  'GET /api/v4/schedules/{id}',
  'GET /api/v4/schedules/on_call',
  'ANY /api/v4/schedules/{proxy+}',
  'POST /integration/{id}',
  'ANY /console/{proxy+}',
  'GET /console/{proxy+}',
]);

describe('route selection', () => {
  it('prefers a literal segment to a path variable, and a variable to a greedy one', () => {
    expect(selectRoute(routes, 'GET', '/api/v4/schedules/on_call')).toEqual({ routeKey: 'GET /api/v4/schedules/on_call', params: {} });
    expect(selectRoute(routes, 'GET', '/api/v4/schedules/sch_1')).toEqual({ routeKey: 'GET /api/v4/schedules/{id}', params: { id: 'sch_1' } });
    expect(selectRoute(routes, 'GET', '/api/v4/schedules/sch_1/events')).toEqual({ routeKey: 'ANY /api/v4/schedules/{proxy+}', params: { proxy: 'sch_1/events' } });
  });

  it('prefers a method to ANY, decodes parameters, and leaves the unmatched to $default', () => {
    expect(selectRoute(routes, 'GET', '/console/alerts')?.routeKey).toBe('GET /console/{proxy+}');
    expect(selectRoute(routes, 'POST', '/console/alerts')?.routeKey).toBe('ANY /console/{proxy+}');
    expect(selectRoute(routes, 'POST', '/integration/a%20b')).toEqual({ routeKey: 'POST /integration/{id}', params: { id: 'a b' } });
    expect(selectRoute(routes, 'GET', '/integration/abc')).toBeUndefined();
    expect(selectRoute(routes, 'GET', '/nowhere')).toBeUndefined();
    expect(selectRoute(routes, 'GET', '/api/v4/schedules/')).toBeUndefined();
  });
});
