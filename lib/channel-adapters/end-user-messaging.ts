// AWS End User Messaging SMS and Voice v2 (the `pinpoint-sms-voice-v2` API; Pinpoint's end of support does not
// affect it): SendTextMessage for SMS, SendVoiceMessage for a one-way text-to-speech call.
// How Hark uses it: docs/notifications.md, "SMS and voice".
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import type { SendResult } from './port.ts';

export interface EndUserMessagingSettings {
  readonly region: string;
  /** A phone number, sender id, pool id or their ARN. */
  readonly originationIdentity: string;
  readonly configurationSet: string | undefined;
  /** Only for a local stand-in; unset on AWS. */
  readonly endpoint: string | undefined;
}

/** Messages older than this are not worth delivering: the page has moved on (the API's TimeToLive, seconds). */
const MESSAGE_TIME_TO_LIVE_SECONDS = 3600;

const clients = new Map<string, PinpointSMSVoiceV2Client>();

function clientFor(settings: EndUserMessagingSettings): PinpointSMSVoiceV2Client {
  const key = `${settings.region}|${settings.endpoint ?? ''}`;
  let client = clients.get(key);
  if (!client) {
    client = new PinpointSMSVoiceV2Client({
      region: settings.region,
      // A local stand-in needs a signature, not real credentials (as with DynamoDB Local).
      ...(settings.endpoint ? { endpoint: settings.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** Failures worth trying again: throttling, AWS's own faults, and requests that never got an answer. */
function resultOfError(error: unknown): SendResult {
  const e = error as { name?: string; message?: string; $fault?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const retryable = e.name === 'ThrottlingException' || e.$fault === 'server' || Boolean(e.$retryable) || status === undefined || status >= 500;
  const text = `End User Messaging refused: ${e.name ?? 'Error'}: ${e.message ?? ''}`.trim();
  // Throttling, AWS's faults and no answer are the service's, not the message's (docs/decisions/0032-provider-breaker.md).
  return retryable ? { status: 'failed', retryable, error: text, scope: 'provider' } : { status: 'failed', retryable, error: text };
}

/** Context sent with each message: shows up in the configuration set's delivery events. */
const contextOf = (notificationId: string) => ({ hark_notification_id: notificationId });

/** Sends one command; what End User Messaging answers or refuses, as the port's result. */
async function sendCommand(settings: EndUserMessagingSettings, command: SendTextMessageCommand | SendVoiceMessageCommand): Promise<SendResult> {
  try {
    const client = clientFor(settings);
    // Two calls, not one: the client's overloads type each command's answer separately.
    const result = command instanceof SendTextMessageCommand ? await client.send(command) : await client.send(command);
    return { status: 'sent', providerMessageId: result.MessageId ?? null };
  } catch (error) {
    return resultOfError(error);
  }
}

/** What every message carries: who it goes to, from which identity, its configuration set, lifetime and context. */
const commonFields = (settings: EndUserMessagingSettings, to: string, notificationId: string) => ({
  DestinationPhoneNumber: to,
  OriginationIdentity: settings.originationIdentity,
  ConfigurationSetName: settings.configurationSet,
  TimeToLive: MESSAGE_TIME_TO_LIVE_SECONDS,
  Context: contextOf(notificationId),
});

export const sendEndUserMessagingText = (settings: EndUserMessagingSettings, to: string, body: string, notificationId: string): Promise<SendResult> =>
  sendCommand(settings, new SendTextMessageCommand({ ...commonFields(settings, to, notificationId), MessageBody: body, MessageType: 'TRANSACTIONAL' }));

export const sendEndUserMessagingVoice = (settings: EndUserMessagingSettings, to: string, speech: string, notificationId: string): Promise<SendResult> =>
  sendCommand(settings, new SendVoiceMessageCommand({ ...commonFields(settings, to, notificationId), MessageBody: speech, MessageBodyTextType: 'TEXT' }));

/**
 * An inbound SMS as End User Messaging publishes it to the phone number's two-way SNS topic (the SNS message is
 * this JSON as a string). Only the fields Hark reads are kept.
 */
export interface InboundTextMessage {
  /** The sender: the person's number. */
  readonly originationNumber: string;
  /** Hark's number they wrote to. */
  readonly destinationNumber: string;
  readonly messageBody: string;
  readonly inboundMessageId: string;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Reads an SNS message of a two-way number; undefined when it is not an inbound SMS of that shape. Pure. */
export function parseInboundTextMessage(snsMessage: string): InboundTextMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(snsMessage);
  } catch {
    return undefined;
  }
  const m = parsed as Partial<Record<keyof InboundTextMessage, unknown>>;
  if (typeof m !== 'object' || m === null) return undefined;
  const { originationNumber, destinationNumber, messageBody, inboundMessageId } = m;
  if (typeof originationNumber !== 'string' || !E164.test(originationNumber)) return undefined;
  if (typeof destinationNumber !== 'string' || typeof messageBody !== 'string' || typeof inboundMessageId !== 'string') return undefined;
  return { originationNumber, destinationNumber, messageBody, inboundMessageId };
}
