// What the delivery domain lends the channel adapters (lib/channel-adapters/port.ts, AdapterServices): the adapters read no
// storage themselves, so the reply-code store and people's emails come from here. docs/notifications.md, "Providers
// and configuration".
import type { AdapterServices } from '../channel-adapters/port.ts';
import { primaryEmailOf } from './recipients.ts';
import { issueReplyCode } from './reply-codes.ts';

export const ADAPTER_SERVICES: AdapterServices = {
  issueReplyCode: (target) => issueReplyCode(target),
  primaryEmailOf,
};
