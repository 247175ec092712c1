// The broadcast event lines of lib/activity/events.ts: sent (how many people it reached) and each answer (who, which
// option, from where), logged once stored. docs/configuration.md, "What npm start prints".
import type { BroadcastData, StoredResponse } from './schema.ts';
import type { EntityItem } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { broadcastAnswered, broadcastSent } from '../activity/events.ts';
import { nameOf } from '../activity/names.ts';

type Broadcast = Pick<EntityItem<BroadcastData>, 'id' | 'prefixId' | 'accountId' | 'data'>;

const refOf = (broadcast: Broadcast) => ({ broadcast_id: broadcast.id, broadcast_prefix_id: broadcast.prefixId, title: broadcast.data.title });

/** The send is stored: `status` is where it moved (open, closed, errored). */
export const announceBroadcastSent = (broadcast: Broadcast, status: string, recipients: number, reached: number): void =>
  broadcastSent({ ...refOf(broadcast), status, recipients, reached });

/** An answer is stored. Never throws: a line is not worth failing the answer for. */
export async function announceBroadcastAnswer(broadcast: Broadcast, response: StoredResponse): Promise<void> {
  try {
    const person = (await nameOf('person', broadcast.accountId, response.account_user_id).catch(() => undefined)) ?? response.account_user_id;
    const answer = broadcast.data.broadcast_response_options.find((o) => o.id === response.broadcast_response_option_id)?.value ?? response.broadcast_response_option_id;
    broadcastAnswered({ ...refOf(broadcast), account_user_id: response.account_user_id, person, answer, channel: response.channel });
  } catch (error) {
    logger.warn('Broadcast event not logged', { error: error as Error });
  }
}
