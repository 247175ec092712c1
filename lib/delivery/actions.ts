// Which channels carry action links or buttons (docs/notifications.md, "Signed links"): the owner of a message says
// which links it carries (lib/delivery/port.ts, messageActions); SMS, voice and WhatsApp act by reply codes instead.
import type { DeliveryChannel } from '../channel-adapters/port.ts';

/** Channels whose messages show links or buttons. */
const LINK_CHANNELS: readonly DeliveryChannel[] = ['email', 'push', 'slack'];

/** Whether a channel's messages show links or buttons (SMS, voice and WhatsApp answer by reply codes instead). */
export const showsLinks = (channel: DeliveryChannel): boolean => LINK_CHANNELS.includes(channel);
