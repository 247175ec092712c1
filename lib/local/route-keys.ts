// API Gateway HTTP API's route selection over a stack's route keys (`GET /api/v4/schedules/{id}`, `ANY /x/{proxy+}`,
// `$default`), for bundle mode's gateway (lib/local/bundles.ts). The most specific route wins: segment by segment a
// literal before a path variable before a greedy `{name+}`; then a method before ANY; nothing matched goes to
// `$default`. Pure.

interface Segment {
  literal?: string;
  param?: string;
  greedy?: boolean;
}

export interface CompiledRouteKey {
  routeKey: string;
  method: string;
  segments: Segment[];
}

export function compileRouteKey(routeKey: string): CompiledRouteKey | undefined {
  if (routeKey === '$default') return undefined;
  const match = /^(\S+) (\/.*)$/.exec(routeKey);
  if (!match) throw new Error(`Not a route key: ${routeKey}`);
  const segments = match[2]!
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const variable = /^\{([^}]+?)(\+?)\}$/.exec(part);
      return variable ? { param: variable[1]!, greedy: variable[2] === '+' } : { literal: part };
    });
  return { routeKey, method: match[1]!.toUpperCase(), segments };
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The path parameters of `path` under `route`, or undefined when it does not match. */
function matchRoute(route: CompiledRouteKey, parts: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const want = route.segments[i]!;
    if (want.greedy) {
      const rest = parts.slice(i);
      if (rest.length === 0 || rest.join('/') === '') return undefined;
      params[want.param!] = decode(rest.join('/'));
      return params;
    }
    const got = parts[i];
    if (got === undefined) return undefined;
    if (want.literal !== undefined) {
      if (want.literal !== got) return undefined;
    } else {
      if (got === '') return undefined;
      params[want.param!] = decode(got);
    }
  }
  return parts.length === route.segments.length ? params : undefined;
}

/** Segment by segment: literal 2, variable 1, greedy 0 (higher is more specific); then method over ANY. */
function moreSpecific(a: CompiledRouteKey, b: CompiledRouteKey): number {
  const rank = (s: Segment | undefined) => (s === undefined ? -1 : s.literal !== undefined ? 2 : s.greedy ? 0 : 1);
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const diff = rank(b.segments[i]) - rank(a.segments[i]);
    if (diff !== 0) return diff;
  }
  return (a.method === 'ANY' ? 1 : 0) - (b.method === 'ANY' ? 1 : 0);
}

/** Orders compiled route keys most specific first, once; `selectRoute` takes the first that matches. */
export function compileRouteKeys(routeKeys: readonly string[]): CompiledRouteKey[] {
  return routeKeys.flatMap((key) => compileRouteKey(key) ?? []).sort(moreSpecific);
}

/** The route a request takes, or `$default` (undefined) when none matches. */
export function selectRoute(routes: readonly CompiledRouteKey[], method: string, path: string): { routeKey: string; params: Record<string, string> } | undefined {
  const parts = path.split('/').slice(1);
  for (const route of routes) {
    if (route.method !== 'ANY' && route.method !== method.toUpperCase()) continue;
    const params = matchRoute(route, parts);
    if (params) return { routeKey: route.routeKey, params };
  }
  return undefined;
}
