// `npm start`'s SMTP listener for email integrations (HARK_SMTP_INBOUND_PORT, loopback like every part npm start
// opens): a recipient that is no enabled email integration is refused at RCPT (550), a mail too large at DATA (552), a
// mail the parser refuses for good (554, kept as a refused log of the integration); an accepted mail is queued for
// each recipient before the 250 (docs/monitors.md, "Email"). In bundle mode the mail takes SES's path instead
// (lib/local/ses.ts): stored in the S3 emulator, then the email function's bundle invoked.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { acceptInboundEmail, recipientIntegration } from '../ingest/email/intake.ts';
import { INBOUND_EMAIL_BYTES } from '../limits.ts';
import { logger } from '../logger.ts';

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export interface SmtpListener {
  port: number;
  stop(): Promise<void>;
}

/** What the listener does with a mail: the source intake by default, SES's stand-in in bundle mode. */
export interface MailIntake {
  /** Whether a recipient is taken (RCPT TO). */
  recipient(address: string): Promise<{ ok: true } | { ok: false; code: number; reason: string }>;
  /** Takes a whole mail for its recipients; the answer's text follows the 250. */
  accept(mail: { raw: Buffer; recipients: string[]; from: string | undefined }): Promise<{ ok: true; queuedAs: string } | { ok: false; code: number; reason: string }>;
}

/** Each recipient's mail through the intake functions/email.ts also uses, run here. */
export const sourceIntake: MailIntake = {
  recipient: (address) => recipientIntegration(address),
  accept: async ({ raw, recipients, from }) => {
    const results = await Promise.all(recipients.map((recipient) => acceptInboundEmail({ raw, recipient, via: 'SMTP', ...(from ? { envelopeFrom: from } : {}) })));
    const refused = results.find((r) => !r.ok);
    if (refused && !refused.ok) return refused;
    return { ok: true, queuedAs: results.map((r) => (r.ok ? r.logId : '')).join(', ') };
  },
};

export async function startSmtpListener(port: number, host: string, intake: MailIntake = sourceIntake): Promise<SmtpListener> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    size: INBOUND_EMAIL_BYTES,
    banner: 'Hark inbound mail for email integrations',
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      intake.recipient(address.address).then(
        (verdict) => callback(verdict.ok ? undefined : smtpError(verdict.code, verdict.reason)),
        (error: unknown) => {
          logger.warn('SMTP recipient check failed', { error: error as Error });
          callback(smtpError(451, 'Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) return callback(smtpError(552, `The message is larger than ${INBOUND_EMAIL_BYTES} bytes`));
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined;
        void intake
          .accept({ raw, recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address), from })
          .then((result) => {
            if (!result.ok) return callback(smtpError(result.code, result.reason));
            callback(null, `Queued as ${result.queuedAs}`);
          })
          .catch((error: unknown) => {
            logger.error('SMTP mail could not be taken', { error: error as Error });
            callback(smtpError(451, 'Try again later'));
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.warn('SMTP listener error', { error }));
  const bound = (server.server.address() as AddressInfo).port;
  return { port: bound, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
