// The action links a message carries (acknowledge, resolve), for the channels that show links or buttons.
// The signed links themselves are made by lib/notify/links.ts (docs/notifications.md, "Acting from a message").
import type { DeliveryChannel, MessageAction, OutgoingMessage } from '../notify/port.ts';

export interface ActionsRequest {
  accountId: string;
  about: OutgoingMessage['about'];
  accountUserId: string;
  channel: DeliveryChannel;
}

/**
 * The actions of one message. Until the signed-link module is part of this build, messages carry none: every
 * message still says which alert it is about, and people act in the API.
 */
export function actionsFor(_request: ActionsRequest): MessageAction[] {
  return [];
}
