// The local inbox (docs/console.md, "The local inbox"): under npm start (HARK_LOCAL_INBOX=1), a channel with no
// provider configured is served by this adapter, which keeps the message in the account's inbox partition for the
// console's /inbox page: the notification record says `sent` by provider `local` instead of `suppressed`. A message
// with no address for its channel (SMS chosen, no phone on file) is still not delivered, with its reason.
import { nowMs } from '../clock.ts';
import { putIfAbsent } from '../db/items.ts';
import { localInboxKey } from '../db/keys.ts';
import type { LocalInboxItem } from '../console/local-inbox.ts';
import { PROVIDER_FACTORIES, type AdapterFactory } from '../channel-adapters/adapters.ts';
import { DELIVERY_CHANNELS, type ChannelAdapter, type DeliveryChannel } from '../channel-adapters/port.ts';

/** Inbox messages go after a week: the local inbox is for trying Hark, not an archive. */
const KEEP_SECONDS = 7 * 24 * 3600;

export function localInboxAdapter(channel: DeliveryChannel): ChannelAdapter {
  return {
    channel,
    provider: 'local',
    async send(message) {
      if (!message.to) return { status: 'suppressed', reason: `the person has no address for ${channel}` };
      const now = nowMs();
      const item: LocalInboxItem = {
        ...localInboxKey(message.accountId, message.notificationId),
        type: 'LOCAL_INBOX',
        id: message.notificationId,
        accountId: message.accountId,
        channel,
        to: message.to,
        subject: message.subject,
        text: message.text,
        actions: message.actions.map((a) => ({ label: a.label, url: a.url })),
        createdAt: new Date(now).toISOString(),
        ttl: Math.ceil(now / 1000) + KEEP_SECONDS,
      };
      // A retried send of the same notification finds its message already there: delivered once.
      await putIfAbsent(item);
      return { status: 'sent', providerMessageId: message.notificationId };
    },
  };
}

const localFactory = (channel: DeliveryChannel): AdapterFactory => (configuration) => (configuration.localInbox ? localInboxAdapter(channel) : undefined);

let installed = false;

/** Adds the local inbox as every channel's last provider (a configured provider still wins). Once per process. */
export function installLocalInbox(): void {
  if (installed) return;
  installed = true;
  for (const channel of DELIVERY_CHANNELS) PROVIDER_FACTORIES[channel] = [...PROVIDER_FACTORIES[channel], localFactory(channel)];
}
