// Disabling a subscription that Hark gave up on (410 Gone, or days of failure), and telling its owners: every
// active admin of the account gets an email in the outbox (subscriptions are admin-only, so the admins own them).
// docs/outgoing-webhooks.md, "When Hark gives up".
import type { EntityItem } from '../db/repository.ts';
import { aliasCreate, putNew, versionWrite, type TransactItem } from '../db/writes.ts';
import { prepareOutboxMessage } from '../outbox/outbox.ts';
import { isActiveAdmin } from '../people/admins.ts';
import { listAccountUserItems } from '../people/lookups.ts';
import { getUsers } from '../people/user-store.ts';
import type { OutgoingWebhookData } from './schema.ts';

/** At most this many admins are emailed (the transaction also carries the delivery's own writes). */
const MAX_NOTIFIED_ADMINS = 20;

/** The subscription's disabled version and one outbox email per active admin with an email address. */
export async function disableWrites(sub: EntityItem<OutgoingWebhookData>, reason: string, now: Date): Promise<TransactItem[]> {
  const { write } = versionWrite(sub, { ...sub.data, enabled: false, disabled_reason: reason, disabled_at: now.toISOString() });
  const admins = (await listAccountUserItems(sub.accountId)).filter(isActiveAdmin).slice(0, MAX_NOTIFIED_ADMINS);
  const people = await getUsers(admins.map((a) => a.data.user_id));
  const writes: TransactItem[] = [write];
  for (const admin of admins) {
    const person = people.get(admin.data.user_id);
    const email = person?.emails.find((e) => e.primary)?.email ?? person?.emails[0]?.email;
    if (!email) continue;
    const message = await prepareOutboxMessage(sub.accountId, {
      channel: 'email',
      to: email,
      template: 'webhook_disabled',
      subject: `Outgoing webhook ${sub.data.name} (${sub.prefixId}) was disabled`,
      body: [
        `Hark stopped sending to the outgoing webhook ${sub.data.name} (${sub.data.url}): ${reason}.`,
        'Undelivered events are kept. Enable the webhook again (PUT /outgoing_webhooks/' + sub.prefixId + ' with enabled: true) to resume from the oldest one.',
      ].join('\n'),
      account_user_id: admin.id,
    });
    writes.push(putNew(message.item), aliasCreate(message.item), ...message.writes);
  }
  return writes;
}
