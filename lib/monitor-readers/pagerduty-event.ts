// PagerDuty Events API v2: the checks PagerDuty makes of an event before it answers 202, as its documentation states
// them (docs/migrating.md, "From PagerDuty"). The intake runs them before queueing, so a sender learns of a bad event
// from PagerDuty's 400 shape naming the field, as it would from PagerDuty; the reader then reads only what passed. Pure.
import { isJsonObject } from './wrapper-key.ts';

export const PAGERDUTY_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type PagerDutyAction = (typeof PAGERDUTY_ACTIONS)[number];
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

/** PagerDuty's bounds: a dedup_key of at most 255 characters, a summary of at most 1,024. */
export const PAGERDUTY_DEDUP_KEY_LENGTH = 255;
export const PAGERDUTY_SUMMARY_LENGTH = 1_024;

export type PagerDutyCheck<T> = ({ ok: true } & T) | { ok: false; errors: string[] };

const blank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A required non-blank text of at most `max` characters (PagerDuty's messages). */
function requiredText(value: unknown, field: string, errors: string[], max?: number): void {
  if (blank(value)) errors.push(`'${field}' is missing or blank`);
  else if (typeof value !== 'string') errors.push(`'${field}' must be a string`);
  else if (max !== undefined && value.length > max) errors.push(`Length of '${field}' is greater than ${max.toLocaleString('en-US')} characters`);
}

function optionalText(value: unknown, field: string, errors: string[]): void {
  if (value !== undefined && value !== null && typeof value !== 'string') errors.push(`'${field}' must be a string`);
}

function optionalTimestamp(value: unknown, field: string, errors: string[]): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) errors.push(`'${field}' is invalid (must be an ISO 8601 timestamp)`);
}

/** links[] of {href, text?} and images[] of {src, href?, alt?}: a list of objects whose URL field is text. */
function optionalList(value: unknown, field: string, url: 'href' | 'src', errors: string[]): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.push(`'${field}' must be a list`);
    return;
  }
  value.forEach((entry, i) => {
    if (!isJsonObject(entry)) errors.push(`'${field}[${i}]' must be an object`);
    else requiredText(entry[url], `${field}[${i}].${url}`, errors);
  });
}

/** The routing key every event carries; its length is PagerDuty's (32), which every key Hark makes has. */
function routingKey(body: Record<string, unknown>, errors: string[]): string {
  const key = body.routing_key;
  if (blank(key)) errors.push(`'routing_key' is missing or blank`);
  else if (typeof key !== 'string') errors.push(`'routing_key' must be a string`);
  else if (key.length !== 32) errors.push(`Length of 'routing_key' is incorrect (should be 32 characters)`);
  return typeof key === 'string' ? key : '';
}

/** An alert event of POST /v2/enqueue: what the intake needs (the key, the action, the sender's dedup_key) or the errors. */
export function checkPagerDutyEvent(body: unknown): PagerDutyCheck<{ routingKey: string; action: PagerDutyAction; dedupKey?: string }> {
  if (!isJsonObject(body)) return { ok: false, errors: ['The event must be a JSON object'] };
  const errors: string[] = [];
  const key = routingKey(body, errors);
  const action = body.event_action;
  const known = typeof action === 'string' && (PAGERDUTY_ACTIONS as readonly string[]).includes(action);
  if (blank(action)) errors.push(`'event_action' is missing or blank`);
  else if (!known) errors.push(`'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')`);
  const dedup = body.dedup_key;
  // A trigger may leave it out (Hark makes one and answers it); an acknowledge or resolve names the alert by it.
  if (blank(dedup)) {
    if (known && action !== 'trigger') errors.push(`'dedup_key' is missing or blank (${action === 'acknowledge' ? 'an' : 'a'} ${action} names the alert by it)`);
  } else if (typeof dedup !== 'string') errors.push(`'dedup_key' must be a string`);
  else if (dedup.length > PAGERDUTY_DEDUP_KEY_LENGTH) errors.push(`Length of 'dedup_key' is greater than ${PAGERDUTY_DEDUP_KEY_LENGTH} characters`);
  if (action === 'trigger') checkTriggerPayload(body, errors);
  if (errors.length) return { ok: false, errors };
  return { ok: true, routingKey: key, action: action as PagerDutyAction, ...(typeof dedup === 'string' && dedup.trim() !== '' ? { dedupKey: dedup } : {}) };
}

function checkTriggerPayload(body: Record<string, unknown>, errors: string[]): void {
  const payload = body.payload;
  if (!isJsonObject(payload)) {
    errors.push(`'payload' is missing or not an object`);
  } else {
    requiredText(payload.summary, 'payload.summary', errors, PAGERDUTY_SUMMARY_LENGTH);
    // PagerDuty requires a source; Hark does not refuse a page over a label (docs/migrating.md, "What Hark does not do").
    optionalText(payload.source, 'payload.source', errors);
    const severity = payload.severity;
    if (blank(severity)) errors.push(`'payload.severity' is missing or blank`);
    else if (typeof severity !== 'string' || !(PAGERDUTY_SEVERITIES as readonly string[]).includes(severity)) {
      errors.push(`'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')`);
    }
    optionalTimestamp(payload.timestamp, 'payload.timestamp', errors);
    for (const field of ['component', 'group', 'class'] as const) optionalText(payload[field], `payload.${field}`, errors);
  }
  optionalList(body.links, 'links', 'href', errors);
  optionalList(body.images, 'images', 'src', errors);
  optionalText(body.client, 'client', errors);
  optionalText(body.client_url, 'client_url', errors);
}

/** A change event of POST /v2/change/enqueue: routing_key and payload.summary are required. */
export function checkPagerDutyChange(body: unknown): PagerDutyCheck<{ routingKey: string }> {
  if (!isJsonObject(body)) return { ok: false, errors: ['The event must be a JSON object'] };
  const errors: string[] = [];
  const key = routingKey(body, errors);
  const payload = body.payload;
  if (!isJsonObject(payload)) errors.push(`'payload' is missing or not an object`);
  else {
    requiredText(payload.summary, 'payload.summary', errors, PAGERDUTY_SUMMARY_LENGTH);
    optionalText(payload.source, 'payload.source', errors);
    optionalTimestamp(payload.timestamp, 'payload.timestamp', errors);
  }
  optionalList(body.links, 'links', 'href', errors);
  return errors.length ? { ok: false, errors } : { ok: true, routingKey: key };
}
