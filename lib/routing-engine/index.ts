// Routers as alert destinations: a pure resolver (no storage, no clock) that runs the routers an alert is sent
// to and answers who is paged, what changes on the alert, and why. Rules: docs/routing.md.
import { RoutingWalk } from './resolve.ts';
import type { FindReceiver, LoadRouter, RoutingInput, RoutingOutcome } from './types.ts';

export type * from './types.ts';
export { ROUTING_LOG_EVENTS } from './types.ts';
export { aggregateFingerprint } from './fingerprint.ts';
export { withRoutingChanges } from './changes.ts';
export { routingRouterOf } from './router.ts';
export { renderTemplate } from './templates.ts';

/**
 * Resolves the alert's destinations through its routers: each router runs its first matching rule (or sends
 * to its default receivers), recursively, at most MAX_ROUTER_DEPTH deep. `loadRouter` is called at most once
 * per id; `findReceiver` (optional) makes `tem_…`/`usr_…` ids canonical so a destination reached under both
 * forms is escalated once.
 */
export function resolveRouting(input: RoutingInput, loadRouter: LoadRouter, findReceiver?: FindReceiver): Promise<RoutingOutcome> {
  return new RoutingWalk(input, loadRouter, findReceiver).run();
}
