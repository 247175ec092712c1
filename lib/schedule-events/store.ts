// Reading events: the account's EVENT collection, whole or filtered by schedule. Why one filtered Query
// rather than a membership index: docs/events-api.md, "Storage".
import { accountPk, entityPrefix } from '../db/keys.ts';
import { getEntity, listEntities, queryAll } from '../db/repository.ts';
import type { EventData } from './schema.ts';
import type { EventItem } from './model.ts';
import { entityCollection } from '../db/pages.ts';
import { cachedConfigRead } from '../db/config-reads.ts';
import { renderEvent } from './model.ts';

export const getEvent = (accountId: string, id: string): Promise<EventItem> => getEntity<EventData>('EVENT', accountId, id);
export const listEvents = (accountId: string): Promise<EventItem[]> => listEntities<EventData>('EVENT', accountId);
export const eventListSource = (accountId: string) => entityCollection('EVENT', accountId, (items: EventItem[]) => items.map(renderEvent));

/**
 * The events of one schedule: one strongly consistent Query of the account's EVENT collection, filtered on the
 * server by membership (schedule_ids holds canonical ids), paged by DynamoDB.
 */
export async function eventsOfSchedule(accountId: string, scheduleId: string): Promise<EventItem[]> {
  return queryAll<EventItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'contains(#data.#scheduleIds, :scheduleId)',
    ExpressionAttributeNames: { '#data': 'data', '#scheduleIds': 'schedule_ids' },
    ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': entityPrefix('EVENT'), ':scheduleId': scheduleId },
    ConsistentRead: true,
  });
}

/** The events of one schedule for a create or an escalation step: from the short configuration cache (docs/alerts.md). */
export const cachedEventsOfSchedule = (accountId: string, scheduleId: string): Promise<EventItem[]> =>
  cachedConfigRead(accountId, `events\u0000${scheduleId}`, () => eventsOfSchedule(accountId, scheduleId));
