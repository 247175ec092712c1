// What one event of a webhook request does to alerts, decided from the reading and the alerts as read: ignore it,
// create an alert, count a duplicate, update an alert or act on it, with the notes its log gets (docs/ingest.md,
// "Applying a request"). Pure: the reads come in as state and lib/ingest/commit.ts makes the writes.
import type { AlertFromInput } from '../alerts/create.ts';
import type { AlertItem } from '../alerts/items.ts';
import type { AlertUpdateInput } from '../alerts/schema.ts';
import type { EntityItem } from '../db/repository.ts';
import type { IntegrationData } from '../integrations/schema.ts';
import type { WindowItem } from '../maintenance/service.ts';
import type { ReadEvent, Reading } from '../monitor-readers/types.ts';
import type { LogNote } from './source-log.ts';

/** The alerts an event's decision depends on, as read just before it. */
export interface EventState {
  /** create: the alert this event made on an earlier delivery (its id comes from the request and the event's index). */
  made?: AlertItem | undefined;
  /** create: the integration's active alert with the event's key. */
  active?: AlertItem | undefined;
  /** update, acknowledge, resolve: the integration's newest alert with the event's key. */
  newest?: AlertItem | undefined;
  /** create with responders: where they lead (lib/ingest/responders.ts); none found → the integration's destinations. */
  responders?: { team_ids: string[]; account_user_ids: string[]; notes: string[] } | undefined;
}

/** What to do with one event; `notes` are the request log's notes for it, written with the change (or alone). */
export type Decision =
  | { kind: 'ignore'; notes: LogNote[]; alert?: AlertItem }
  /** Stored by an earlier delivery: only the notes are still to write (`notes` are the reader's; the stored note is added). */
  | { kind: 'made'; alert: AlertItem; notes: LogNote[] }
  | { kind: 'create'; input: AlertFromInput; thirdpartyId: string; notes: LogNote[] }
  | { kind: 'dedup'; target: AlertItem; notes: LogNote[] }
  | { kind: 'update'; target: AlertItem; input: AlertUpdateInput; fields: string[]; notes: LogNote[] }
  | { kind: 'act'; action: 'acknowledge' | 'resolve'; target: AlertItem; notes: LogNote[] }
  /** A note on the alert's timeline (Opsgenie's notes), by the integration. */
  | { kind: 'comment'; target: AlertItem; body: string; notes: LogNote[] };

const alertName = (alert: Pick<AlertItem, 'prefixId'>) => alert.prefixId;
const asNotes = (notes: readonly string[]): LogNote[] => notes.map((message) => ({ message }));

/**
 * Why the whole request changes nothing, as its log's notes: the integration is gone, a maintenance window silences
 * it, or the reading found no event. Undefined when its events are to be applied.
 */
export function requestIgnored(integration: EntityItem<IntegrationData> | undefined, window: WindowItem | undefined, reading?: Reading): LogNote[] | undefined {
  if (!integration) return [{ message: 'Ignored: the integration was deleted before the request was applied; no alert changed' }];
  if (window) {
    return [
      {
        message: `Ignored: maintenance window "${window.data.name}" (${window.prefixId}) silences this integration from ${window.data.start_datetime} to ${window.data.end_datetime}; no alert changed`,
        maintenance_window_id: window.id,
      },
    ];
  }
  if (reading && reading.events.length === 0) return [...asNotes(reading.notes), { message: `Ignored: ${reading.ignoredReason ?? 'the request carries no event'}` }];
  return undefined;
}

/** The reader's notes an event's log entry starts with: the request's own notes ride with its first event. */
export const readNotesOf = (reading: Reading, index: number): LogNote[] => asNotes([...(index === 0 ? reading.notes : []), ...reading.events[index]!.notes]);

/** Decides one event from the reader's notes for it and the alerts as read (EventState). */
export function decideEvent(event: ReadEvent, integration: EntityItem<IntegrationData>, readNotes: LogNote[], state: EventState): Decision {
  if (event.event === 'create') {
    if (state.made) return { kind: 'made', alert: state.made, notes: readNotes };
    if (state.active) {
      const { active } = state;
      const note = { message: `Deduplicated into alert ${alertName(active)} (still ${active.data.status}): dedup_count ${active.data.dedup_count + 1}, nobody paged`, alert_id: active.id };
      return { kind: 'dedup', target: active, notes: [...readNotes, note] };
    }
    const responderNotes = asNotes(state.responders?.notes ?? []);
    return { kind: 'create', input: createInput(event, integration, state.responders), thirdpartyId: event.thirdpartyId, notes: [...readNotes, ...responderNotes] };
  }
  const newest = state.newest;
  if (!newest) return { kind: 'ignore', notes: [...readNotes, event.alertRef ? unknownRefNote(event.event, event.alertRef) : unknownIdNote(event.event, event.thirdpartyId)] };
  if (event.event === 'comment') {
    const body = event.fields.comment ?? '';
    return { kind: 'comment', target: newest, body, notes: [...readNotes, { message: `Noted on alert ${alertName(newest)}`, alert_id: newest.id }] };
  }
  if (event.event === 'tag' || event.event === 'untag') {
    const sent = event.fields.tag_list ?? [];
    const tag_list = event.event === 'tag' ? [...new Set([...newest.data.tag_list, ...sent])] : newest.data.tag_list.filter((tag) => !sent.includes(tag));
    const done = event.event === 'tag' ? 'Tags added to' : 'Tags removed from';
    const note = { message: `${done} alert ${alertName(newest)}: ${sent.join(', ')}`, alert_id: newest.id };
    return { kind: 'update', target: newest, input: { tag_list }, fields: ['tag_list'], notes: [...readNotes, note] };
  }
  if (event.event === 'update') {
    const input = updateInput(event);
    const fields = Object.keys(input);
    if (fields.length === 0) return { kind: 'ignore', notes: [...readNotes, { message: `Ignored: the update names no field to change on alert ${alertName(newest)}`, alert_id: newest.id }] };
    // The note names the fields sent; a field sent with its current value is not a change (commit then ignores it).
    return { kind: 'update', target: newest, input, fields, notes: [...readNotes, { message: `Updated alert ${alertName(newest)}: ${fields.join(', ')}`, alert_id: newest.id }] };
  }
  const done = event.event === 'acknowledge' ? 'Acknowledged' : 'Resolved';
  return { kind: 'act', action: event.event, target: newest, notes: [...readNotes, { message: `${done} alert ${alertName(newest)}`, alert_id: newest.id }] };
}

/**
 * The fields of the alert a create makes: the payload's, the integration's urgency and destinations for the rest. The
 * responders the sender named, when any of them was found, replace the integration's destinations.
 */
function createInput(event: ReadEvent, integration: EntityItem<IntegrationData>, responders?: EventState['responders']): AlertFromInput {
  const { fields } = event;
  const routed = responders && responders.team_ids.length + responders.account_user_ids.length > 0 ? responders : undefined;
  return {
    title: fields.title!,
    description: fields.description ?? null,
    urgency: fields.urgency ?? integration.data.urgency,
    tags: fields.tag_list,
    meta: fields.meta,
    dedup_keys: fields.dedup_keys,
    additional_data: fields.additional_data,
    destination_team_ids: routed ? routed.team_ids : integration.data.team_ids,
    destination_router_ids: routed ? [] : integration.data.router_ids,
    destination_account_user_ids: routed ? routed.account_user_ids : integration.data.account_user_ids,
  };
}

/** An update's change: the fields the payload carries; the rest stay. */
function updateInput({ fields }: ReadEvent): AlertUpdateInput {
  return {
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    ...(fields.urgency !== undefined ? { urgency: fields.urgency } : {}),
    ...(fields.tag_list !== undefined ? { tag_list: fields.tag_list } : {}),
    ...(fields.meta !== undefined ? { meta: fields.meta } : {}),
    ...(fields.dedup_keys !== undefined ? { dedup_keys: fields.dedup_keys } : {}),
  };
}

export const unknownIdNote = (event: string, thirdpartyId: string): LogNote => ({
  message: `Ignored: no alert of this integration has Id "${thirdpartyId}", so there is nothing to ${event}`,
});

/** An event naming an alert by Hark's id or tiny id that this integration did not make (or that does not exist). */
export const unknownRefNote = (event: string, ref: NonNullable<ReadEvent['alertRef']>): LogNote => ({
  message: `Ignored: no alert made by this integration has ${ref.by === 'tiny' ? 'tiny id' : 'id'} "${ref.value}", so there is nothing to ${event}`,
});

/** An update whose every field already had the value sent. */
export const sameValuesNote = (alert: AlertItem, fields: readonly string[]): LogNote => ({
  message: `Ignored: alert ${alertName(alert)} already has the values sent (${fields.join(', ')})`,
  alert_id: alert.id,
});

/** An acknowledge or resolve the alert's status does not allow (resolve a resolved alert): never an error the monitor sees. */
export const notAllowedNote = (alert: AlertItem, action: 'acknowledge' | 'resolve', reason: string): LogNote => ({
  message: `Ignored: alert ${alertName(alert)} was not ${action === 'acknowledge' ? 'acknowledged' : 'resolved'}: ${reason}`,
  alert_id: alert.id,
});

/** The note of a create: the alert made (or the router's aggregation of it), or the alert a dedup key folded it into. */
export function storedNote(alert: AlertItem, outcome: 'created' | 'deduplicated'): LogNote {
  if (outcome === 'deduplicated') {
    return { message: `Deduplicated into alert ${alertName(alert)} by a dedup key (still ${alert.data.status}): dedup_count ${alert.data.dedup_count + 1}, nobody paged`, alert_id: alert.id };
  }
  const message = alert.data.parent_id
    ? `Created alert ${alertName(alert)}, aggregated into alert ${alert.data.parent_id} by a router`
    : `Created alert ${alertName(alert)} (${alert.data.status})`;
  return { message, alert_id: alert.id };
}
