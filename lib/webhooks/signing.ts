// Standard Webhooks signing with the specification's own library: `whsec_` secrets, `v1,` HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.<body>`, one signature per secret still signing, space-separated.
// docs/outgoing-webhooks.md, "Verifying a delivery".
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SigningSecret } from './schema.ts';

/** A new secret: 32 random bytes, base64, with the specification's `whsec_` prefix. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The secrets that sign at `nowIso`: the current one, and rotated-out ones until their grace ends. */
export const signingSecrets = (secrets: readonly SigningSecret[], nowIso: string): SigningSecret[] =>
  secrets.filter((s) => s.expires_at === null || s.expires_at > nowIso);

/** The secrets to keep after a rotation at `nowIso` with `graceSeconds`: the new one, and the old ones ending by then. */
export function rotatedSecrets(secrets: readonly SigningSecret[], fresh: string, nowIso: string, graceSeconds: number): SigningSecret[] {
  const until = new Date(Date.parse(nowIso) + graceSeconds * 1000).toISOString();
  const old = signingSecrets(secrets, nowIso)
    .map((s) => ({ ...s, expires_at: s.expires_at === null || s.expires_at > until ? until : s.expires_at }))
    .filter((s) => graceSeconds > 0 && s.expires_at > nowIso);
  return [{ secret: fresh, created_at: nowIso, expires_at: null }, ...old];
}

/** The request headers of one attempt (Standard Webhooks names), signed by every secret that signs now. */
export function signedHeaders(secrets: readonly SigningSecret[], webhookId: string, at: Date, body: string): Record<string, string> {
  const signatures = signingSecrets(secrets, at.toISOString()).map((s) => new Webhook(s.secret).sign(webhookId, at, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'Hark-Webhooks/1',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

/** Headers as the delivery log shows them: the signatures are cut to their version tag. */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const signature = headers['webhook-signature'];
  if (signature === undefined) return { ...headers };
  return { ...headers, 'webhook-signature': signature.split(' ').map((s) => `${s.split(',')[0]},…`).join(' ') };
}
