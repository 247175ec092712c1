// The delivery port: what every channel adapter implements and what the delivery worker hands it. Adapters live
// beside this file (one per provider); which adapter serves a channel is decided by configuration.
// How delivery works, channel by channel: docs/notifications.md.

/**
 * The channels a message can go out on: the notification rules' channels (voice only for alert.open). Adapters
 * import no domain code, so the list is spelled here; test/unit/channel-adapters keeps it equal to the rules' channels.
 */
export const DELIVERY_CHANNELS = ['push', 'email', 'sms', 'voice', 'whatsapp', 'slack'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** A button or link in a message that acts for the recipient (acknowledge, resolve, a broadcast answer). */
export interface MessageAction {
  /** What the action does: `acknowledge`, `resolve`, or a broadcast response option id. */
  readonly action: string;
  /** Words on the button or next to the link. */
  readonly label: string;
  /** A signed link: GET shows a confirmation page, only its form POST acts. */
  readonly url: string;
}

/** One message to one person on one channel, as the delivery worker hands it to an adapter. */
export interface OutgoingMessage {
  /** The notification record's id: unique per message, stable across retries (providers' idempotency key). */
  readonly notificationId: string;
  readonly accountId: string;
  readonly channel: DeliveryChannel;
  /** The address: an email address, an E.164 phone number, or the account user id (push, chat). */
  readonly to: string;
  /** The recipient's account user id. */
  readonly accountUserId: string;
  /** One line: an email subject, a push title, the first line of an SMS. */
  readonly subject: string;
  /** Plain text body (no links in it; actions carry them). */
  readonly text: string;
  /** Signed links for email, chat and push. */
  readonly actions: readonly MessageAction[];
  /** What the message is about, for adapters that act on replies (SMS codes, voice key presses, chat buttons). */
  readonly about: { readonly ownerType: 'alert' | 'broadcast'; readonly ownerId: string; readonly prefixId: string };
  /**
   * An opaque reference to the message's notification record, for providers that report delivery later (Twilio's
   * status callback carries it back in its URL). Absent when the caller has no record (tests, previews).
   */
  readonly statusRef?: string;
}

/**
 * What an adapter reports. `failed` with `retryable` is tried again with backoff; `suppressed` means the channel
 * has no provider configured (or the recipient has no address for it): recorded with the reason, never retried.
 * `scope: 'provider'` marks a failure of the provider or server itself (no connection, TLS, timeout, 5xx, 429, an
 * SMTP 4xx greeting), which says nothing about the message: consecutive ones open the provider's breaker
 * (docs/decisions/0032-provider-breaker.md). Without it the failure is the message's own (SMTP 550, a bad number).
 */
export type SendResult =
  | { readonly status: 'sent'; readonly providerMessageId: string | null }
  | { readonly status: 'failed'; readonly retryable: boolean; readonly error: string; readonly scope?: 'provider' }
  | { readonly status: 'suppressed'; readonly reason: string };

/** Whether a provider answered again after its breaker opened: a probe that sends nothing to anyone. */
export type ProbeResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

export interface ChannelAdapter {
  readonly channel: DeliveryChannel;
  /** The provider's name as the notification record shows it: smtp, ses, twilio, end-user-messaging, slack, ntfy, … */
  readonly provider: string;
  /** The server this adapter talks to, when the deployment names one (an SMTP host and port): part of its breaker's key. */
  readonly endpoint?: string;
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Asks the provider whether it answers, without a message (SMTP: connect, greet, log in); absent: the next send tells. */
  probe?(): Promise<ProbeResult>;
}

/** What a message was about, as a reply code keeps it. */
export interface ReplyOwner {
  readonly ownerType: 'alert' | 'broadcast';
  readonly ownerId: string;
  readonly prefixId: string;
}

/** A message that waited for the throttle, as a bundle names it (the delivery side builds these). */
export interface BundledPart extends ReplyOwner {
  readonly notificationId: string;
  readonly accountUserId: string;
  /** The message's one line (the alert's summary). */
  readonly subject: string;
  /** The notification type (alert.open, alert.resolved, …); a page is `alert.open`. */
  readonly notificationType: string;
  /** When it was held (epoch ms): the bundle lists oldest first. */
  readonly heldAt: number;
  /** Its signed links (email), shown in the bundle labelled with the alert. */
  readonly actions?: readonly MessageAction[];
}

/** An outgoing message that carries several waiting ones: the adapters that act on replies read `covers`. */
export interface BundledMessage extends OutgoingMessage {
  /** Every message the bundle stands for (the triggering one included). */
  readonly covers: readonly BundledPart[];
}

/** True for a message that stands for several (a throttle bundle). */
export const isBundle = (message: OutgoingMessage): message is BundledMessage => Array.isArray((message as Partial<BundledMessage>).covers);

/**
 * What the delivery domain lends the adapters: adapters keep no state of their own and read no storage, so the
 * phone adapters get the reply-code store and the chat adapter the way to a person's email from here
 * (lib/delivery/adapter-services.ts builds it).
 */
export interface AdapterServices {
  /**
   * Hands out the number's next reply code for a message naming `owners` and records it before the message goes
   * out; `alone` tells whether it is the number's only live code (the message may then ask for a bare "4").
   */
  issueReplyCode(target: {
    readonly phone: string;
    readonly accountId: string;
    readonly accountUserId: string;
    readonly owners: readonly ReplyOwner[];
    readonly channel: string;
  }): Promise<{ code: string; alone: boolean }>;
  /** The primary email of an account user's person (or their first email); undefined when they have none. */
  primaryEmailOf(accountId: string, accountUserId: string): Promise<string | undefined>;
}
