// /me (docs/console.md, "Pages"): my contact methods and whether a provider can reach each, my notification rule, my
// push topic, my next shifts, the active alerts paged to me, and my invitations with Accept and Deny.
import type { AccountUserData } from '../../accounts/account-users.ts';
import { allAlerts } from '../../alerts/store.ts';
import { findEntity } from '../../db/repository.ts';
import { ADAPTER_SERVICES } from '../../delivery/adapter-services.ts';
import { pushSubscription } from '../../delivery/subscriptions.ts';
import { windowEvents } from '../../schedule-events/views.ts';
import { CONSOLE_SCHEDULE_DAYS } from '../../limits.ts';
import type { NotificationRuleData } from '../../notification-rules/schema.ts';
import { adapterFor, unconfiguredReason } from '../../channel-adapters/adapters.ts';
import type { DeliveryChannel } from '../../channel-adapters/port.ts';
import { acceptInvitation, declineInvitation } from '../../people/invitations.ts';
import { listSchedules } from '../../schedules/service.ts';
import { accountsOf } from '../person-accounts.ts';
import { forgetIdentity, type ConsoleRequest, type SignedIn } from '../request.ts';
import { redirect } from '../headers.ts';
import type { PageResult } from '../page.ts';
import { mePage } from '../templates/me-template.ts';
import { displayZoneOf, wallTime } from '../display-time.ts';
import type { HttpResult } from '../../http/responses.ts';
import { notFound } from '../../errors.ts';

type Account = SignedIn & { caller: NonNullable<SignedIn['caller']> };

const reach = (channel: DeliveryChannel) => {
  const adapter = adapterFor(channel, ADAPTER_SERVICES);
  return { reachable: adapter !== undefined, why: adapter ? '' : unconfiguredReason(channel) };
};

export async function mePageOf(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const { accountId, accountUserId } = who.caller;
  const zone = displayZoneOf(who.person.time_zone) ?? 'UTC';
  const when = (ms: number) => wallTime(ms, zone);
  const [self, schedules, accounts, push, open, acknowledged] = await Promise.all([
    findEntity<AccountUserData>('ACCOUNT_USER', accountId, accountUserId),
    listSchedules(accountId),
    accountsOf(who.person.id),
    pushSubscription(who.caller, accountUserId),
    allAlerts(accountId, { by: 'status', status: 'open' }),
    allAlerts(accountId, { by: 'status', status: 'acknowledged' }),
  ]);
  const ruleId = self?.data.notification_rule_id;
  const rule = ruleId ? await findEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, ruleId) : undefined;
  const shifts = (
    await Promise.all(
      schedules.map(async (s) =>
        (await windowEvents(accountId, s.id, request.now, request.now + CONSOLE_SCHEDULE_DAYS * 86_400_000))
          .filter((e) => e.attendees.some((a) => a.attendee_id === accountUserId))
          .map((e) => ({ schedule: s.data.name, scheduleId: s.id, layer: e.layer, startMs: Date.parse(e.start_time), endMs: Date.parse(e.end_time) })),
      ),
    )
  )
    .flat()
    .sort((a, b) => a.startMs - b.startMs);
  const person = who.person;
  const contacts = [
    ...person.emails.map((e) => ({ channel: 'email', address: e.email, ...reach('email') })),
    ...person.phones.flatMap((p) => [
      { channel: 'SMS', address: p.phone, ...reach('sms') },
      { channel: 'voice', address: p.phone, ...reach('voice') },
    ]),
    { channel: 'push', address: 'the ntfy app', ...reach('push') },
  ];
  const pagedToMe = [...open, ...acknowledged].filter((a) => (a.escalation?.workflows ?? []).some((w) => w.account_user_id === accountUserId));
  const doneText: Record<string, string> = { accepted: 'Invitation accepted: switch accounts to work in it.', denied: 'Invitation denied.' };
  const done = request.query.done ? doneText[request.query.done] : undefined;
  return {
    title: 'Me',
    body: mePage({
      name: person.name,
      contacts,
      rule: rule ? `${rule.data.name}${rule.data.enabled ? '' : ' (disabled)'}` : 'None: pages use my default channels (' + defaultChannels(person).join(', ') + ').',
      push: { topic: push.topic, url: push.subscribe_url },
      shifts: shifts.map((s) => ({ schedule: s.schedule, scheduleId: s.scheduleId, layer: s.layer, from: when(Math.max(s.startMs, request.now)), to: when(s.endMs) })),
      alerts: pagedToMe.map((a) => ({ id: a.id, title: a.data.title, status: a.data.status })),
      invitations: accounts.filter((a) => !a.joined).map((a) => ({ accountId: a.accountId, name: a.name })),
      csrf: who.csrf,
      zone,
      ...(done ? { done } : {}),
    }),
  };
}

const defaultChannels = (p: SignedIn['person']) =>
  (['push', 'email', 'sms', 'voice'] as const).filter((c) => p[`notify_${c}`]).map((c) => (c === 'sms' ? 'SMS' : c));

/** Accept or deny an invitation (decision 0009): accepting makes the membership active, denying removes it. */
export const invitationAnswer = (answer: 'accept' | 'deny') => async (request: ConsoleRequest, who: SignedIn): Promise<HttpResult> => {
  const accountId = request.params.id ?? '';
  const invited = (await accountsOf(who.person.id)).find((a) => a.accountId === accountId && !a.joined);
  if (!invited) throw notFound('Invitation');
  if (answer === 'accept') await acceptInvitation(who.person.id, accountId);
  else await declineInvitation(who.person.id, accountId);
  forgetIdentity(who.person.id);
  return redirect(who.caller ? `/me?done=${answer === 'accept' ? 'accepted' : 'denied'}` : '/accounts');
};
