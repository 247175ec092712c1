// A stored router as the resolver reads it.
import type { RoutingRouter } from './types.ts';

/** A stored router's fields (lib/routers), as far as the resolver reads them. */
export type StoredRouterFields = Omit<RoutingRouter, 'id' | 'prefix_id'>;

/** Maps a stored router (an entity item of the routers resource) onto what `resolveRouting` reads. */
export function routingRouterOf(item: { readonly id: string; readonly prefixId: string; readonly data: StoredRouterFields }): RoutingRouter {
  const { data } = item;
  return {
    id: item.id,
    prefix_id: item.prefixId,
    name: data.name,
    enabled: data.enabled,
    rules: data.rules,
    default_receiver_account_user_id: data.default_receiver_account_user_id,
    default_receiver_router_id: data.default_receiver_router_id,
    default_receiver_team_id: data.default_receiver_team_id,
  };
}
