// Phone numbers: validated and normalised to E.164, with the country derived from the number.
//
// The "max" metadata of libphonenumber-js is used on purpose: the default ("min") metadata checks only the
// length of the national number, so it accepts numbers in ranges no operator has been given (for example
// +49 1234 5678901 or +1 800 123 4567); "max" checks the number against the real numbering plan ranges. A
// number that passes here is one that can be dialled, which is what paging at 3 a.m. needs. The extra
// metadata (~150 kB) only costs bundle size in the users and account-users Lambdas.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type PhoneCheck = { ok: true; phone: string; country: string | null } | { ok: false; problem: string };

/** What an international number may be written with: digits, spaces, dashes, dots, slashes, parentheses. */
const ALLOWED = /^\+?[\d\s\-./()]+$/;

/**
 * Validates a phone number written in international form and returns its E.164 form and ISO 3166 alpha-2
 * country. The leading `+` may be written `00`. National forms (no country code) are refused: the service
 * cannot guess the country. `problem` completes a sentence starting with the field name.
 */
export function normalizePhone(raw: string): PhoneCheck {
  let text = raw.trim();
  if (text === '') return { ok: false, problem: "can't be blank" };
  if (text.startsWith('00')) text = `+${text.slice(2)}`;
  if (!ALLOWED.test(text)) return { ok: false, problem: `is not a phone number: ${JSON.stringify(raw)}` };
  if (!text.startsWith('+')) {
    return { ok: false, problem: `must be in international format, starting with + and the country code (e.g. +14155552671), got ${JSON.stringify(raw)}` };
  }
  const parsed = parsePhoneNumberFromString(text);
  if (!parsed || !parsed.isValid()) return { ok: false, problem: `is not a valid phone number: ${JSON.stringify(raw)}` };
  return { ok: true, phone: parsed.number, country: parsed.country ?? null };
}
