// The intake of a mail to an email integration, shared by the local SMTP listener (npm start) and the SES receipt
// Lambda on AWS: find the integration by the address's local part, check it takes mail, and queue the mail as a
// request of the integration, answered only once the queue has it (docs/monitors.md, "Email").
import { randomUUID } from 'node:crypto';
import { nowIso, nowMs } from '../../clock.ts';
import { config } from '../../config.ts';
import { couldBeId } from '../../ids.ts';
import { findIntegrationLookup, type IntegrationLookupItem } from '../../integrations/lookup.ts';
import { INBOUND_EMAIL_BYTES, MAX_PATH_ID_LENGTH } from '../../limits.ts';
import { enqueueIngest, type IngestMessage } from '../../queue/ingest.ts';
import { recordRefusal } from '../refusals.ts';
import { logIdsOf } from '../request-ids.ts';
import { emailBodyOf, emailHeadersOf, parseMail } from './message.ts';

/** Why a mail is not taken, with the SMTP reply code the local listener answers (5xx: the sender should not retry). */
export type RecipientVerdict = { ok: true; integration: IntegrationLookupItem; address: string } | { ok: false; code: 550 | 552 | 451; reason: string };

/** What became of one mail: its log's prefix id, or why it was not taken (554: unreadable, kept as a refused log). */
export type IntakeOutcome = { ok: true; logId: string } | { ok: false; code: 550 | 552 | 554 | 451; reason: string };

/** An address's integration: the local part is its prefix id; unknown, disabled or not an email integration is refused. */
export async function recipientIntegration(address: string): Promise<RecipientVerdict> {
  const domain = config().inbound.emailDomain;
  const at = address.lastIndexOf('@');
  // The local part is the prefix id, whose case matters; the domain's does not.
  const local = address.slice(0, at);
  if (!domain || at < 1 || address.slice(at + 1).toLowerCase() !== domain) return { ok: false, code: 550, reason: `Hark takes mail for @${domain ?? '(no domain configured)'} only` };
  const integration = local.length <= MAX_PATH_ID_LENGTH && couldBeId(local) ? await findIntegrationLookup(local) : undefined;
  if (!integration || integration.integrationTypeId !== 'email') return { ok: false, code: 550, reason: `No email integration has the address ${address}` };
  if (!integration.enabled) return { ok: false, code: 550, reason: `The integration of ${address} is disabled` };
  return { ok: true, integration, address: `${local}@${domain}` };
}

export interface InboundMail {
  raw: Buffer;
  recipient: string;
  envelopeFrom?: string;
  /** The sender's own id of this delivery when it has one (SES's message id): a retried delivery is one request. */
  deliveryId?: string;
  /** How it came: `SMTP` locally, `SES` on AWS (shown as the request's method in its log). */
  via: 'SMTP' | 'SES';
}

/**
 * Queues one mail for one recipient; its log's prefix id, or why it was refused. A mail the parser refuses (too many
 * MIME parts, a header block too large) is refused for good (554) and kept as a `refused` log of the integration, at
 * most one a minute (../refusals.ts): retrying could never help.
 */
export async function acceptInboundEmail(mail: InboundMail): Promise<IntakeOutcome> {
  if (mail.raw.length > INBOUND_EMAIL_BYTES) return { ok: false, code: 552, reason: `The message is larger than ${INBOUND_EMAIL_BYTES} bytes` };
  const recipient = await recipientIntegration(mail.recipient);
  if (!recipient.ok) return recipient;
  let parsed: Awaited<ReturnType<typeof parseMail>>;
  try {
    parsed = await parseMail(mail.raw);
  } catch (error) {
    const reason = `The message cannot be read: ${(error as Error).message}`;
    const { integration } = recipient;
    await recordRefusal(
      { accountId: integration.accountId, integrationId: integration.integrationId, reason: 'unreadable_mail', detail: reason, method: mail.via, path: `mailto:${recipient.address}`, headers: mail.envelopeFrom ? { 'envelope-from': mail.envelopeFrom } : {} },
      nowMs(),
    );
    return { ok: false, code: 554, reason };
  }
  const body = emailBodyOf(parsed, recipient.integration.integrationId, recipient.address);
  const message: IngestMessage = {
    kind: 'webhook',
    requestId: mail.deliveryId ? `${mail.via.toLowerCase()}:${recipient.integration.integrationId}:${mail.deliveryId}` : randomUUID(),
    accountId: recipient.integration.accountId,
    integrationId: recipient.integration.integrationId,
    receivedAt: nowIso(),
    method: mail.via,
    // No alertKey: an integration's mails share one message group, so a problem mail and the mail that resolves it
    // (whose subject differs) are applied in the order they came.
    path: `mailto:${recipient.address}`,
    headers: emailHeadersOf(parsed, mail.envelopeFrom),
    query: {},
    body,
  };
  try {
    await enqueueIngest(message);
  } catch {
    return { ok: false, code: 451, reason: 'The mail could not be queued; try again later' };
  }
  return { ok: true, logId: logIdsOf(message).prefixId };
}
