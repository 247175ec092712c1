// The composition module of the delivery port (docs/architecture.md, "The delivery port"): the one place that knows
// both delivery and the owners its messages are about. Each owner type a link, a reply code or a notification record
// can name has its DeliveryOwner here; the functions that send (functions/timers.ts), show or act on a link and take a
// Slack click (functions/actions.ts) or a reply (functions/phone.ts, functions/sms_inbound.ts) pass it to delivery.
import { alertDeliveryOwner } from '../alerts/message-owner.ts';
import { broadcastDeliveryOwner } from '../broadcasts/message-owner.ts';
import type { DeliveryOwners } from '../delivery/port.ts';

export const DELIVERY_OWNERS: DeliveryOwners = { alert: alertDeliveryOwner, broadcast: broadcastDeliveryOwner };
