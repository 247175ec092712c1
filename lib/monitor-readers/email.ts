// Email integrations: a mail to <prefix_id>@<HARK_INBOUND_EMAIL_DOMAIN> becomes an alert (docs/monitors.md, "Email").
// The body the reader sees is the mail as lib/ingest/email/message.ts reads it (subject, text, ids, sender); the
// reader is pure: a thread's replies and a repeated subject fold into the active alert, a subject matching
// resolve_subject_regex resolves the alert of the rest of the subject.
import { RE2JS } from 're2js';
import { z } from 'zod';
import { MAX_ALERT_KEY_LENGTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { linearRegexProblem } from '../rule-engine/regex.ts';
import { isJsonObject } from './wrapper-key.ts';
import { cutText, labelList } from './fields.ts';
import type { IntegrationReader, ReaderRequest, Reading } from './types.ts';

export const emailOptions = z
  .object({
    resolve_subject_regex: z
      .string({ error: 'must be a regular expression (text)' })
      .superRefine((pattern, ctx) => {
        const problem = linearRegexProblem(pattern, undefined);
        if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(/^\$regex/, 'is').replace('rules do not support', 'Hark does not support') });
      })
      .nullable()
      .default(null),
  })
  .strict();

/** What lib/ingest/email/message.ts queues for a mail; the reader trusts its shape no further than it checks. */
export interface EmailBody {
  integration_id: string;
  subject: string;
  text: string;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  from: string[];
  to: string[];
}

/** Reply and forward markers in front of a subject, in the languages mail programs write them. */
const REPLY_PREFIX = /^\s*(?:(?:re|fw|fwd|aw|wg|sv|vs|antw|r|rif|tr|odp|res)\s*(?:\[\d+\])?\s*:\s*)+/i;

/** A subject as a thread's key: reply markers dropped, separators at its start dropped, spaces folded, lower-cased. */
export function subjectKey(subject: string): string {
  const bare = subject.replace(REPLY_PREFIX, '').replace(/^[\s:\-–—|]+/, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return cutText(`subject:${bare}`, MAX_ALERT_KEY_LENGTH);
}

/** The part of the subject after the resolve pattern's first match (the alert it names); undefined when it does not match. */
export function resolvedSubject(subject: string, pattern: string): string | undefined {
  // RE2 (linear time), as rules run theirs; the pattern was checked when the options were saved.
  const matcher = RE2JS.compile(pattern).matcher(subject);
  if (!matcher.find()) return undefined;
  return subject.slice(0, matcher.start()) + subject.slice(matcher.end());
}

const textList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The dedup keys of a mail: its own Message-ID and the thread's (In-Reply-To, References: root and the last few). */
function threadKeys(body: Record<string, unknown>, notes: string[]): string[] {
  const references = textList(body.references);
  const ids = [text(body.message_id), text(body.in_reply_to), ...references.slice(0, 1), ...references.slice(-8)].filter((id) => id !== '');
  const prefix = `email:${text(body.integration_id)}:`;
  return labelList(
    ids.map((id) => prefix + id),
    'dedup_keys',
    notes,
  );
}

export function readEmail(request: ReaderRequest, options: { options: Record<string, unknown> }): Reading {
  const body = request.body;
  if (!isJsonObject(body) || typeof body.subject !== 'string') return { events: [], ignoredReason: 'Not a mail as Hark reads it', notes: [] };
  const { resolve_subject_regex: pattern } = emailOptions.parse(options.options);
  const subject = body.subject.trim();
  const notes: string[] = [];
  const rest = pattern ? resolvedSubject(subject, pattern) : undefined;
  if (rest !== undefined) {
    return {
      events: [{ event: 'resolve', thirdpartyId: subjectKey(rest), idGenerated: false, fields: {}, notes: [`Subject matches resolve_subject_regex: resolves the alert of "${cutText(rest.trim(), 120)}"`] }],
      notes: [],
    };
  }
  const title = subject === '' ? '(no subject)' : subject;
  if (title.length > NAME_LENGTH) notes.push(`Title cut to ${NAME_LENGTH} characters`);
  const description = text(body.text).trim();
  if (description.length > TEXT_LENGTH) notes.push(`Description cut to ${TEXT_LENGTH} characters`);
  const from = textList(body.from);
  return {
    events: [
      {
        event: 'create',
        thirdpartyId: subjectKey(subject),
        idGenerated: false,
        fields: {
          title: cutText(title, NAME_LENGTH),
          description: description === '' ? null : cutText(description, TEXT_LENGTH),
          dedup_keys: threadKeys(body, notes),
          meta: { from: from[0] ?? null, message_id: text(body.message_id) || null },
        },
        notes,
      },
    ],
    notes: [],
  };
}

export const emailReader: IntegrationReader = {
  id: 'email',
  name: 'Email',
  description: 'Alerts from mail: each email integration has its own address; the subject is the title, the text the description, replies in a thread fold into one alert.',
  docs: 'docs/monitors.md#email',
  options: emailOptions,
  read: readEmail,
};
