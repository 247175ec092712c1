// Routers as alert destinations: a pure resolver (no storage, no clock) that runs the routers an alert is sent
// to and answers who is paged, what changes on the alert, and why. Rules: docs/routing.md.
import type { FindReceiver, LoadRouter, RoutingInput, RoutingOutcome } from './types.ts';

export type * from './types.ts';
export { ROUTING_LOG_EVENTS } from './types.ts';

/** Resolves the alert's destinations through its routers (recursively, at most 10 deep). */
export async function resolveRouting(input: RoutingInput, loadRouter: LoadRouter, findReceiver?: FindReceiver): Promise<RoutingOutcome> {
  void input;
  void loadRouter;
  void findReceiver;
  throw new Error('resolveRouting: the contract is committed first; the resolver follows in the next commit');
}
