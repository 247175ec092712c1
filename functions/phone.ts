// Twilio's inbound requests: POST /sms/twilio (SMS and WhatsApp replies), POST /voice/twilio/gather (a page
// call's key press) and POST /sms/twilio/status (a message's or call's delivery report). No API key: each request must carry X-Twilio-Signature, checked against the URL Twilio
// requested (HARK_PUBLIC_URL + path + query) and the form fields, before anything is read or written.
// The answer is TwiML. Rules: docs/notifications.md, "Inbound replies".
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { config, publicBaseUrlOf } from '#lib/config.ts';
import { forbidden, invalid } from '#lib/errors.ts';
import { boundedRawBody } from '#lib/api-shapes/body.ts';
import { errorResponse, unmatchedRoute, type HttpResult } from '#lib/http/responses.ts';
import { findRoute } from '#lib/http/routes.ts';
import { lambdaLogging } from '#lib/logger.ts';
import { answerKeyPress, answerTextReply } from '#lib/delivery/inbound.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';
import { recordKeyOfStatusRef, recordProviderStatus } from '#lib/delivery/status-callbacks.ts';
import { nowIso } from '#lib/clock.ts';
import { loadSecrets } from '#lib/channel-adapters/secrets.ts';
import { TWILIO_GATHER_PATH, TWILIO_SMS_PATH, TWILIO_STATUS_PATH, twilioStatusOf, twimlReply, verifyTwilioSignature } from '#lib/channel-adapters/twilio.ts';

// On AWS, provider credentials and the link key come from the stack's secret, read once per cold start (docs/notifications.md).
await loadSecrets();

type FormFields = Record<string, string | string[]>;

/** The form fields of the body (Twilio posts application/x-www-form-urlencoded); a repeated name keeps every value. */
function formFields(event: APIGatewayProxyEventV2): FormFields {
  const contentType = (event.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/x-www-form-urlencoded') throw invalid('Content-Type must be application/x-www-form-urlencoded');
  const raw = boundedRawBody(event);
  const fields: FormFields = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

const field = (fields: FormFields, name: string): string | undefined => {
  const value = fields[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Refuses a request whose signature is missing or wrong; nothing has been read or written before this. */
function checkSignature(event: APIGatewayProxyEventV2, fields: FormFields): void {
  const authToken = config().phone.twilio.authToken;
  const publicUrl = publicBaseUrlOf(config());
  if (!authToken || !publicUrl) throw forbidden('Twilio requests cannot be checked here: HARK_TWILIO_AUTH_TOKEN and HARK_PUBLIC_URL must be set');
  const url = `${publicUrl}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  if (!verifyTwilioSignature(authToken, url, fields, event.headers['x-twilio-signature'])) throw forbidden('X-Twilio-Signature does not match the request');
}

const twiml = (xml: string): HttpResult => ({ statusCode: 200, headers: { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' }, body: xml });

/** A number as Twilio writes it for WhatsApp ("whatsapp:+1…") or SMS ("+1…"). */
function senderOf(from: string): { phone: string; channel: 'sms' | 'whatsapp' } {
  return from.startsWith('whatsapp:') ? { phone: from.slice('whatsapp:'.length), channel: 'whatsapp' } : { phone: from, channel: 'sms' };
}

async function onSms(fields: FormFields): Promise<HttpResult> {
  const from = field(fields, 'From');
  if (!from) throw invalid('From is missing');
  const { phone, channel } = senderOf(from);
  return twiml(twimlReply('message', await answerTextReply(DELIVERY_OWNERS, phone, field(fields, 'Body') ?? '', channel)));
}

/** On a call Hark placed, `To` is the person's number; the code came back in the gather URL Hark gave. */
async function onGather(event: APIGatewayProxyEventV2, fields: FormFields): Promise<HttpResult> {
  const to = field(fields, 'To');
  if (!to) throw invalid('To is missing');
  return twiml(twimlReply('say', await answerKeyPress(DELIVERY_OWNERS, to, event.queryStringParameters?.code, field(fields, 'Digits') ?? '')));
}

/**
 * A delivery report: the record named by the signed URL's `ref` moves on when it is still `sent` with this sid. Twilio
 * gets an empty answer whether or not anything changed (a late or repeated report is no error to retry).
 */
async function onStatus(event: APIGatewayProxyEventV2, fields: FormFields): Promise<HttpResult> {
  const ref = event.queryStringParameters?.ref;
  if (!ref) throw invalid('ref is missing from the query');
  const key = recordKeyOfStatusRef(ref);
  if (!key) throw invalid('ref is not a notification reference');
  const one: Record<string, string | undefined> = Object.fromEntries(Object.keys(fields).map((name) => [name, field(fields, name)]));
  const { sid, status } = twilioStatusOf(one);
  if (!sid) throw invalid('MessageSid or CallSid is missing');
  await recordProviderStatus(key, sid, status, nowIso());
  return twiml(twimlReply('message', undefined));
}

export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    const { method, path } = event.requestContext.http;
    try {
      const found = findRoute(method, path);
      if (!found || !('route' in found) || found.route.group !== 'phone') throw unmatchedRoute(method, path);
      const fields = formFields(event);
      checkSignature(event, fields);
      if (found.route.path === TWILIO_SMS_PATH) return await onSms(fields);
      if (found.route.path === TWILIO_GATHER_PATH) return await onGather(event, fields);
      if (found.route.path === TWILIO_STATUS_PATH) return await onStatus(event, fields);
      throw unmatchedRoute(method, path);
    } catch (error) {
      return errorResponse(error);
    }
  });
