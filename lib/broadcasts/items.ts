// The stored broadcast and its API object, apart from the service so that what renders a broadcast (the service,
// its outgoing webhook events, its send) imports this file and not each other (docs/architecture.md, "No import cycles").
import { renderCommon, type EntityItem } from '../db/repository.ts';
import { countResponses } from './rules.ts';
import type { BroadcastData, StoredResponse } from './schema.ts';

/** The stored broadcast: its fields, and every answer keyed by account user (the last answer of each person). */
export interface BroadcastItem extends EntityItem<BroadcastData> {
  responses: Record<string, StoredResponse>;
}

/** Answers oldest first (ties by id), as the object shows them. */
export const responsesOf = (item: Pick<BroadcastItem, 'responses'>): StoredResponse[] =>
  Object.values(item.responses ?? {}).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

/** The API object: the stored fields, each option with its count, and the answers; counts come from the answers. */
export function renderBroadcast(item: BroadcastItem): Record<string, unknown> {
  const { meta, created_at, updated_at, ...ids } = renderCommon(item);
  const responses = responsesOf(item);
  const counts = countResponses(item.data.broadcast_response_options, responses);
  // Broadcasts stored before errored_reason existed show it as null.
  const { broadcast_response_options, errored_reason = null, ...fields } = item.data;
  return {
    ...ids,
    ...fields,
    errored_reason,
    broadcast_response_options: broadcast_response_options.map((o) => ({ ...o, broadcast_responses_count: counts.get(o.id) ?? 0 })),
    broadcast_responses: responses,
    meta,
    created_at,
    updated_at,
  };
}
