// Credentials never reach a webhook request's stored log (docs/ingest.md, "Logs"), which every member of the account
// can read: a header or query parameter whose name looks like a credential keeps its name, with its value replaced.

/** What a credential's value becomes: the log still shows that it was sent. */
export const REDACTED = '[redacted]';

/** Words that mark a credential anywhere in a name, in any case: `X-Auth-Token`, `Api-Key`, `api_key`, `X-Amz-Security-Token`. */
const CREDENTIAL_PARTS = ['auth', 'cookie', 'credential', 'key', 'passwd', 'password', 'secret', 'session', 'signature', 'token'];
/** Short words that mark a credential only as a whole word of the name (`?sig=`, `X-Pass`), not inside another word (`signal`). */
const CREDENTIAL_WORDS = new Set(['sig', 'pass', 'pwd', 'jwt']);

/** Whether a header or query parameter name looks like it carries a credential. Errs towards yes (`author` is redacted). */
export function looksLikeCredential(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_PARTS.some((part) => lower.includes(part)) || lower.split(/[^a-z0-9]+/).some((word) => CREDENTIAL_WORDS.has(word));
}

/** The same names and values, except that credentials' values are REDACTED. Pure. */
export function redactCredentials(values: Readonly<Record<string, string>>): Record<string, string> {
  // fromEntries defines own keys, so a parameter named "__proto__" stays a plain entry.
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, looksLikeCredential(name) ? REDACTED : value]));
}
