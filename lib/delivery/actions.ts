// The action links a message carries (acknowledge, resolve), for the channels that show links or buttons: signed by
// lib/delivery/links.ts (docs/notifications.md, "Signed links"). SMS, voice and WhatsApp act by reply codes instead.
import { ALERT_LINK_ACTIONS, actionLinks } from './links.ts';
import type { DeliveryChannel, MessageAction, OutgoingMessage } from '../notify/port.ts';

/** Channels whose messages show links or buttons. */
const LINK_CHANNELS: readonly DeliveryChannel[] = ['email', 'push', 'slack'];

/** Whether a channel's messages show links or buttons (SMS, voice and WhatsApp answer by reply codes instead). */
export const showsLinks = (channel: DeliveryChannel): boolean => LINK_CHANNELS.includes(channel);

export interface ActionsRequest {
  accountId: string;
  about: OutgoingMessage['about'];
  accountUserId: string;
  channel: DeliveryChannel;
  now: number;
}

/** The signed acknowledge and resolve links of one alert message; none without a link key or public URL configured. */
export function actionsFor(request: ActionsRequest): MessageAction[] {
  if (request.about.ownerType !== 'alert' || !showsLinks(request.channel)) return [];
  return actionLinks({
    ownerType: 'alert',
    ownerId: request.about.ownerId,
    accountId: request.accountId,
    accountUserId: request.accountUserId,
    actions: ALERT_LINK_ACTIONS,
    now: request.now,
    channel: request.channel,
  });
}
