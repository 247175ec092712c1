// The SMS and voice channels: the adapters the registry builds from HARK_SMS_PROVIDER (Twilio or AWS End User
// Messaging). Each message about an alert gets a reply code for the number before it goes out (issued by the delivery
// domain's reply-code store, lent as AdapterServices), and ends with the reply instruction; a throttle bundle gets one
// code for all its alerts.
// Rules: docs/notifications.md, "SMS and voice" and "Inbound replies".
import { publicBaseUrlOf, type HarkConfig } from '../config.ts';
import { SMS_TEXT_LENGTH, VOICE_SPEECH_LENGTH } from '../limits.ts';
import { sendEndUserMessagingText, sendEndUserMessagingVoice, type EndUserMessagingSettings } from './end-user-messaging.ts';
import { isBundle, type AdapterServices, type ChannelAdapter, type OutgoingMessage, type ReplyOwner, type SendResult } from './port.ts';
import { bundleMessage } from './throttle.ts';
import { createTwilioResource, statusCallbackField, TWILIO_GATHER_PATH, xmlText, type TwilioAccount } from './twilio.ts';

/** Cuts text to `length` characters (code points), marking the cut. Pure. */
export function cut(text: string, length: number): string {
  const chars = [...text];
  return chars.length <= length ? text : `${chars.slice(0, Math.max(0, length - 1)).join('')}…`;
}

/** The alerts a message names: its own, or every alert of a bundle, each once. Broadcasts take no replies. */
export function ownersOf(message: OutgoingMessage): ReplyOwner[] {
  const all: ReplyOwner[] = isBundle(message)
    ? message.covers.map((c) => ({ ownerType: c.ownerType, ownerId: c.ownerId, prefixId: c.prefixId }))
    : [{ ownerType: message.about.ownerType, ownerId: message.about.ownerId, prefixId: message.about.prefixId }];
  const seen = new Set<string>();
  return all.filter((o) => o.ownerType === 'alert' && !seen.has(o.ownerId) && seen.add(o.ownerId));
}

/**
 * The SMS text: "<alert> <summary>", the message's text, and the reply instruction last, cut so the instruction
 * always survives. A bundle's text is rebuilt with the instruction in it ("…; Reply 4 to acknowledge all"). Pure.
 */
export function smsText(message: OutgoingMessage, instruction: string | undefined): string {
  if (isBundle(message)) return cut(bundleMessage(message.covers, instruction ?? '').text, SMS_TEXT_LENGTH);
  const tail = instruction ? `\n${instruction}.` : '';
  const head = [`${message.about.prefixId} ${message.subject}`, message.text].filter((part) => part.trim() !== '').join('\n');
  return cut(head, SMS_TEXT_LENGTH - [...tail].length) + tail;
}

/** What a call says: the alert, then (with key presses) the instruction. Pure. */
export function speechOf(message: OutgoingMessage, instruction: string | undefined): string {
  const about = isBundle(message) ? bundleMessage(message.covers, '').text : `${message.subject}. ${message.text}`;
  const body = cut(`This is Hark. ${about}`.replace(/\s+/g, ' ').trim(), VOICE_SPEECH_LENGTH);
  return instruction ? `${body} ${instruction}.` : body;
}

/** The reply instruction a message ends with: bare digits when this is the number's only live code. Pure. */
export function replyInstruction(code: string, alone: boolean, owners: number, kind: 'reply' | 'press' = 'reply'): string {
  const all = owners > 1 ? ' all' : '';
  const suffix = alone ? '' : code;
  return `${kind === 'reply' ? 'Reply' : 'Press'} 4${suffix} to acknowledge${all}, 6${suffix} to resolve${all}`;
}

/** Issues a text message's reply code (when it names alerts) and returns the instruction to end it with. */
export async function issueReplyInstruction(services: AdapterServices, message: OutgoingMessage, channel: 'sms' | 'whatsapp' = 'sms'): Promise<string | undefined> {
  const owners = ownersOf(message);
  if (owners.length === 0) return undefined;
  const { code, alone } = await services.issueReplyCode({ phone: message.to, accountId: message.accountId, accountUserId: message.accountUserId, owners, channel });
  return replyInstruction(code, alone, owners.length);
}

/** Sends the SMS text, ended by its reply instruction (a reply code issued first), through `send`. */
async function sendWithReplyInstruction(services: AdapterServices, message: OutgoingMessage, send: (text: string) => Promise<SendResult>): Promise<SendResult> {
  let instruction: string | undefined;
  try {
    instruction = await issueReplyInstruction(services, message);
  } catch (error) {
    return storageFailure(error);
  }
  return send(smsText(message, instruction));
}

/** A storage failure while issuing a reply code: nothing was sent, so trying again is safe. */
export const storageFailure = (error: unknown): SendResult => ({ status: 'failed', retryable: true, error: `the reply code could not be stored: ${(error as Error).message}` });

function twilioAccountOf(config: HarkConfig): TwilioAccount | undefined {
  const { accountSid, authToken, apiUrl } = config.phone.twilio;
  return accountSid && authToken ? { accountSid, authToken, apiUrl } : undefined;
}

function endUserMessagingOf(config: HarkConfig): EndUserMessagingSettings | undefined {
  const { originationIdentity, configurationSet, endpoint } = config.phone.endUserMessaging;
  return originationIdentity ? { region: config.region, originationIdentity, configurationSet, endpoint } : undefined;
}

/** The SMS adapter HARK_SMS_PROVIDER names, or undefined when it (or its settings) are not configured. */
export function smsAdapter(config: HarkConfig, services: AdapterServices): ChannelAdapter | undefined {
  const provider = config.phone.smsProvider;
  if (provider === 'twilio') {
    const account = twilioAccountOf(config);
    const from = config.phone.twilio.from;
    if (!account || !from) return undefined;
    const sender: Record<string, string> = from.startsWith('MG') ? { MessagingServiceSid: from } : { From: from };
    const publicUrl = publicBaseUrlOf(config);
    return {
      channel: 'sms',
      provider: 'twilio',
      send: (message) =>
        sendWithReplyInstruction(services, message, (text) =>
          createTwilioResource(account, 'Messages', { To: message.to, ...sender, Body: text, ...statusCallbackField(publicUrl, message.statusRef) }),
        ),
    };
  }
  if (provider === 'end-user-messaging') {
    const settings = endUserMessagingOf(config);
    if (!settings) return undefined;
    return {
      channel: 'sms',
      provider: 'end-user-messaging',
      send: (message) => sendWithReplyInstruction(services, message, (text) => sendEndUserMessagingText(settings, message.to, text, message.notificationId)),
    };
  }
  return undefined;
}

/** How long a call waits for a key press before it says goodbye. */
const GATHER_TIMEOUT_SECONDS = 10;

/**
 * The TwiML of a page call: the alert read out twice inside a one-digit <Gather> whose answer goes to the gather
 * endpoint with the reply code in its URL (Twilio signs that URL, so the code cannot be changed on the way). Pure.
 */
export function callTwiml(speech: string, gatherUrl: string): string {
  const say = `<Say>${xmlText(speech)}</Say>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Gather numDigits="1" timeout="${GATHER_TIMEOUT_SECONDS}" method="POST" action="${xmlText(gatherUrl)}">${say}<Pause length="1"/>${say}</Gather>` +
    '<Say>No key was pressed. Goodbye.</Say></Response>'
  );
}


/**
 * The voice adapter. Twilio calls read the alert and take "press 4 to acknowledge, 6 to resolve" (key presses need
 * HARK_PUBLIC_URL, where Twilio posts them; without it the call only reads the alert). End User Messaging calls
 * are one-way text-to-speech.
 */
export function voiceAdapter(config: HarkConfig, services: AdapterServices): ChannelAdapter | undefined {
  const provider = config.phone.smsProvider;
  if (provider === 'twilio') {
    const account = twilioAccountOf(config);
    const from = config.phone.twilio.from;
    // A call needs a number to call from; a messaging service cannot place calls.
    if (!account || !from || from.startsWith('MG')) return undefined;
    const publicUrl = publicBaseUrlOf(config);
    return {
      channel: 'voice',
      provider: 'twilio',
      async send(message) {
        const owners = ownersOf(message);
        if (!publicUrl || owners.length === 0) {
          return createTwilioResource(account, 'Calls', {
            To: message.to,
            From: from,
            Twiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${xmlText(speechOf(message, undefined))}</Say></Response>`,
            ...statusCallbackField(publicUrl, message.statusRef),
          });
        }
        let code: string;
        try {
          code = (await services.issueReplyCode({ phone: message.to, accountId: message.accountId, accountUserId: message.accountUserId, owners, channel: 'voice' })).code;
        } catch (error) {
          return storageFailure(error);
        }
        // A key press carries its code in the gather URL, so a call never asks for letters.
        const instruction = replyInstruction(code, true, owners.length, 'press');
        const gatherUrl = `${publicUrl}${TWILIO_GATHER_PATH}?code=${code}`;
        return createTwilioResource(account, 'Calls', { To: message.to, From: from, Twiml: callTwiml(speechOf(message, instruction), gatherUrl), ...statusCallbackField(publicUrl, message.statusRef) });
      },
    };
  }
  if (provider === 'end-user-messaging') {
    const settings = endUserMessagingOf(config);
    if (!settings) return undefined;
    return {
      channel: 'voice',
      provider: 'end-user-messaging',
      send: (message) => sendEndUserMessagingVoice(settings, message.to, speechOf(message, undefined), message.notificationId),
    };
  }
  return undefined;
}
