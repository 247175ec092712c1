// The delivery port: what every channel adapter implements and what the delivery worker hands it. Adapters live
// beside this file (one per provider); which adapter serves a channel is decided by configuration.
// How delivery works, channel by channel: docs/notifications.md.

/**
 * The channels a message can go out on: the notification rules' channels (voice only for alert.open). Adapters
 * import no domain code, so the list is spelled here; test/unit/notify keeps it equal to the rules' channels.
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
}

/**
 * What an adapter reports. `failed` with `retryable` is tried again with backoff; `suppressed` means the channel
 * has no provider configured (or the recipient has no address for it): recorded with the reason, never retried.
 */
export type SendResult =
  | { readonly status: 'sent'; readonly providerMessageId: string | null }
  | { readonly status: 'failed'; readonly retryable: boolean; readonly error: string }
  | { readonly status: 'suppressed'; readonly reason: string };

export interface ChannelAdapter {
  readonly channel: DeliveryChannel;
  /** The provider's name as the notification record shows it: smtp, ses, twilio, end-user-messaging, slack, ntfy, … */
  readonly provider: string;
  send(message: OutgoingMessage): Promise<SendResult>;
}
