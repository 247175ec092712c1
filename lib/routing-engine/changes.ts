// Applying the routers' field changes to the alert before it is stored (docs/routing.md, "setval").
import type { AlertChanges, RoutingAlert } from './types.ts';

/** The alert with setval and incident changes applied; incident fields merge into the alert's meta. */
export function withRoutingChanges<A extends RoutingAlert>(alert: A, changes: AlertChanges): A {
  return {
    ...alert,
    ...(changes.title !== undefined && { title: changes.title }),
    ...(changes.description !== undefined && { description: changes.description }),
    ...(changes.tag_list !== undefined && { tag_list: [...changes.tag_list] }),
    ...(changes.urgency !== undefined && { urgency: changes.urgency }),
    ...(changes.meta !== undefined && { meta: { ...alert.meta, ...changes.meta } }),
  };
}
