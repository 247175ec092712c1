// A received mail as the email reader sees it: parsed with mailparser, the subject, the text part (the HTML part
// turned to text when there is no text part), the thread's ids and the sender; the headers for the request's log
// (docs/monitors.md, "Email").
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { TEXT_LENGTH } from '../../limits.ts';
import { cutText } from '../../monitor-readers/fields.ts';
import type { EmailBody } from '../../monitor-readers/email.ts';
import { loggableHeaders } from '../webhook.ts';

export const parseMail = (raw: Buffer | string): Promise<ParsedMail> => simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });

const addressesOf = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) => group.value.flatMap((a) => (a.address ? [a.address.toLowerCase()] : [])));

const listOf = (value: string | string[] | undefined): string[] => (Array.isArray(value) ? value : value ? [value] : []);

/** The body queued for a mail: what the email reader reads. */
export function emailBodyOf(mail: ParsedMail, integrationId: string, recipient: string): EmailBody {
  const text = mail.text ?? (typeof mail.html === 'string' ? mail.html.replace(/<[^>]*>/g, ' ') : '');
  return {
    integration_id: integrationId,
    subject: mail.subject ?? '',
    // Cut here too: the queued message stays far below the queue's limit whatever the mail holds.
    text: cutText(text, TEXT_LENGTH + 1),
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references: listOf(mail.references),
    from: addressesOf(mail.from),
    to: [recipient, ...addressesOf(mail.to).filter((a) => a !== recipient)],
  };
}

/** Headers for the request's log: each header once, as text, credentials redacted as a webhook's are. */
export function emailHeadersOf(mail: ParsedMail, envelopeFrom: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines) {
    const name = line.key.toLowerCase();
    const value = line.line.slice(line.line.indexOf(':') + 1).trim();
    headers[name] = headers[name] === undefined ? cutText(value, 1000) : headers[name];
  }
  if (envelopeFrom) headers['envelope-from'] = envelopeFrom;
  return loggableHeaders(headers);
}
