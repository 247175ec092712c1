// /inbox (admins, npm start only; docs/console.md, "The local inbox"): the newest messages that went to the local
// inbox, with their action links.
import { CONSOLE_INBOX_MESSAGES } from '../../limits.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import { newestInboxMessages } from '../local-inbox.ts';
import type { PageResult } from '../page.ts';
import { inboxPage } from '../templates/admin-templates.ts';
import { displayZoneOf, wallTime } from '../display-time.ts';

type Account = SignedIn & { caller: NonNullable<SignedIn['caller']> };

export async function inbox(_request: ConsoleRequest, who: Account): Promise<PageResult> {
  const zone = displayZoneOf(who.person.time_zone) ?? 'UTC';
  const messages = await newestInboxMessages(who.caller.accountId, CONSOLE_INBOX_MESSAGES);
  return {
    title: 'Local inbox',
    script: true,
    body: inboxPage({
      shown: CONSOLE_INBOX_MESSAGES,
      messages: messages.map((m) => ({ when: wallTime(Date.parse(m.createdAt), zone), channel: m.channel, to: m.to, subject: m.subject, text: m.text, actions: m.actions })),
    }),
  };
}
