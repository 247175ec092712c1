// Which channels a person is paged on, and the address each channel uses: the person's notification rule when it is
// enabled and a rule matches, else their notify_* defaults. Pure. Rules: docs/alerts.md, "Notifications".
import {
  evaluateNotificationRules,
  matchDataOf,
  parseNotificationRules,
  type Channel,
  type NotificationType,
  type NotificationAction,
  type NotifyAction,
} from '../rule-engine/index.ts';

export interface PersonContact {
  account_user_id: string;
  notify_push: boolean;
  notify_email: boolean;
  notify_sms: boolean;
  notify_voice: boolean;
  /** Primary first. */
  emails: readonly { email: string; primary: boolean }[];
  phones: readonly { phone: string; primary: boolean; blocked: boolean }[];
  /** The person's notification rule document and whether it is enabled; null when the person has none. */
  rule: { enabled: boolean; rules: string } | null;
}

export type ChannelChoice =
  | { readonly kind: 'channels'; readonly channels: readonly Channel[]; readonly via: 'rule' | 'defaults' }
  | { readonly kind: 'ignored' };

/** The channels of the person's notify_* defaults, in a fixed order. */
export function defaultChannels(person: PersonContact): Channel[] {
  const channels: Channel[] = [];
  if (person.notify_push) channels.push('push');
  if (person.notify_email) channels.push('email');
  if (person.notify_sms) channels.push('sms');
  if (person.notify_voice) channels.push('voice');
  return channels;
}

/**
 * The first notify action of the first matching rule gives the channels (later actions of the cycle, with their
 * timeouts, are delivery's part); a matching `ignore` sends nothing. No rule, a disabled or unreadable one, or no
 * match → the defaults.
 */
export const chooseChannels = (person: PersonContact, alert: object, type: NotificationType, now: Date): ChannelChoice =>
  choiceOf(person, matchingActions(person, alert, type, now));

/**
 * The actions of the person's notification rule that matches the message (for a page, `alert.open`, they drive the
 * person's notification cycle); undefined when the defaults apply (no rule, a disabled or unreadable one, no match).
 */
export function matchingActions(person: PersonContact, alert: object, type: NotificationType, now: Date): readonly NotificationAction[] | undefined {
  if (!person.rule?.enabled) return undefined;
  const parsed = parseNotificationRules(person.rule.rules);
  if (!parsed.ok) return undefined;
  const evaluation = evaluateNotificationRules(parsed.document, matchDataOf(alert), type, now);
  return evaluation.matched ? evaluation.actions : undefined;
}

/** The channels a matching rule's actions give (see chooseChannels), or the person's defaults. */
export function choiceOf(person: PersonContact, actions: readonly NotificationAction[] | undefined): ChannelChoice {
  if (actions) {
    if (actions[0]?.type === 'ignore') return { kind: 'ignored' };
    const notify = actions.find((a): a is NotifyAction => a.type === 'notify');
    if (notify) return { kind: 'channels', channels: [...new Set(notify.channels)], via: 'rule' };
  }
  return { kind: 'channels', channels: defaultChannels(person), via: 'defaults' };
}

/** Where a channel reaches the person: the primary email, the primary usable phone, or the account user (push, chat). */
export function addressFor(person: PersonContact, channel: Channel): { ok: true; to: string } | { ok: false; reason: string } {
  if (channel === 'email') {
    const email = person.emails.find((e) => e.primary) ?? person.emails[0];
    return email ? { ok: true, to: email.email } : { ok: false, reason: 'the person has no email address' };
  }
  if (channel === 'sms' || channel === 'voice' || channel === 'whatsapp') {
    const usable = person.phones.filter((p) => !p.blocked);
    const phone = usable.find((p) => p.primary) ?? usable[0];
    return phone ? { ok: true, to: phone.phone } : { ok: false, reason: 'the person has no usable phone number' };
  }
  return { ok: true, to: person.account_user_id };
}
