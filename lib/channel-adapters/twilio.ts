// Twilio over its REST API with plain fetch (the official package is 16.7 MB): messages (SMS, WhatsApp templates),
// calls with inline TwiML, and the request signature Twilio puts on the requests it makes to us.
// How Hark uses it: docs/notifications.md, "SMS and voice", "WhatsApp" and "Inbound replies".
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SendResult } from './port.ts';

/** The path Twilio posts a call's key press to (a public route of the route table). */
export const TWILIO_GATHER_PATH = '/voice/twilio/gather';
/** The path Twilio posts inbound SMS and WhatsApp messages to. */
export const TWILIO_SMS_PATH = '/sms/twilio';
/** The path Twilio posts a message's or a call's status changes to (its StatusCallback). */
export const TWILIO_STATUS_PATH = '/sms/twilio/status';

/**
 * The StatusCallback field of a message or call: the status endpoint with the record's reference in the query (Twilio
 * signs the full URL, so the reference cannot be changed on the way). None without a public URL or a reference.
 */
export function statusCallbackField(publicUrl: string | undefined, statusRef: string | undefined): Record<string, string> {
  return publicUrl && statusRef ? { StatusCallback: `${publicUrl}${TWILIO_STATUS_PATH}?ref=${encodeURIComponent(statusRef)}` } : {};
}

/** What a status callback reports: delivered, failed for good (with why), or a step on the way (nothing to record). */
export type ProviderStatus = { readonly kind: 'delivered' } | { readonly kind: 'failed'; readonly error: string } | { readonly kind: 'pending' };

const MESSAGE_DELIVERED = new Set(['delivered', 'read']);
const MESSAGE_FAILED = new Set(['failed', 'undelivered']);
const CALL_FAILED = new Set(['busy', 'no-answer', 'failed', 'canceled']);

/**
 * Reads a status callback's form: a message's (MessageSid, MessageStatus, ErrorCode) or a call's (CallSid,
 * CallStatus). A message that is `delivered` or `read` was delivered; `failed` or `undelivered` failed. A call that
 * `completed` was answered; `busy`, `no-answer`, `failed` or `canceled` failed. Anything else is on the way. Pure.
 */
export function twilioStatusOf(fields: Readonly<Record<string, string | undefined>>): { sid: string | undefined; status: ProviderStatus } {
  if (fields.CallSid !== undefined && fields.MessageSid === undefined) {
    const status = fields.CallStatus ?? '';
    if (status === 'completed') return { sid: fields.CallSid, status: { kind: 'delivered' } };
    if (CALL_FAILED.has(status)) return { sid: fields.CallSid, status: { kind: 'failed', error: `Twilio reported the call ${status}` } };
    return { sid: fields.CallSid, status: { kind: 'pending' } };
  }
  const status = fields.MessageStatus ?? fields.SmsStatus ?? '';
  if (MESSAGE_DELIVERED.has(status)) return { sid: fields.MessageSid, status: { kind: 'delivered' } };
  if (MESSAGE_FAILED.has(status)) {
    const code = fields.ErrorCode ? ` (Twilio error ${fields.ErrorCode})` : '';
    return { sid: fields.MessageSid, status: { kind: 'failed', error: `Twilio reported the message ${status}${code}` } };
  }
  return { sid: fields.MessageSid, status: { kind: 'pending' } };
}

export interface TwilioAccount {
  readonly accountSid: string;
  readonly authToken: string;
  /** Base URL of the REST API, without a trailing slash. */
  readonly apiUrl: string;
}

/** Twilio's resources Hark creates: a message (SMS, WhatsApp) or a call. */
export type TwilioResource = 'Messages' | 'Calls';

/** A request that took longer than this is treated as a failure to retry. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Statuses worth trying again: rate limiting and Twilio's own failures. */
const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/**
 * Creates a message or a call: POST `/2010-04-01/Accounts/<sid>/<resource>.json` with HTTP Basic auth (account
 * SID and auth token) and a form body. Twilio answers 201 with the resource (its `sid` is the provider id), or an
 * error object `{code, message}`.
 */
export async function createTwilioResource(account: TwilioAccount, resource: TwilioResource, form: Record<string, string>): Promise<SendResult> {
  const url = `${account.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/${resource}.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    return { status: 'failed', retryable: true, error: `Twilio could not be reached: ${(error as Error).message}`, scope: 'provider' };
  }
  const text = await response.text().catch(() => '');
  let body: { sid?: unknown; code?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (response.ok && typeof body.sid === 'string') return { status: 'sent', providerMessageId: body.sid };
  const detail = typeof body.message === 'string' ? `${body.message}${body.code !== undefined ? ` (Twilio error ${String(body.code)})` : ''}` : text.slice(0, 200);
  const error = `Twilio answered ${response.status}: ${detail}`;
  // 429 and 5xx are Twilio's trouble, not the message's: they count toward its breaker (docs/decisions/0032-provider-breaker.md).
  if (response.status === 429 || response.status >= 500) return { status: 'failed', retryable: true, error, scope: 'provider' };
  return { status: 'failed', retryable: isRetryableStatus(response.status), error };
}

/**
 * The signature Twilio sends in `X-Twilio-Signature`: HMAC-SHA1 with the auth token over the full URL Twilio
 * requested, followed by each POST parameter's name and value with the names in sorted order; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Readonly<Record<string, string | readonly string[]>>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const one of typeof value === 'string' ? [value] : [...value].sort()) data += name + one;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** True when `header` is the signature of this request; compared in constant time. */
export function verifyTwilioSignature(authToken: string, url: string, params: Readonly<Record<string, string | readonly string[]>>, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Text for TwiML (XML): the five characters XML gives meaning escaped. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A TwiML document answering an inbound message or key press: the words to send or say back (none: an empty answer). */
export function twimlReply(kind: 'message' | 'say', text: string | undefined): string {
  if (!text) return '<?xml version="1.0" encoding="UTF-8"?><Response/>';
  const verb = kind === 'message' ? 'Message' : 'Say';
  return `<?xml version="1.0" encoding="UTF-8"?><Response><${verb}>${xmlText(text)}</${verb}></Response>`;
}
