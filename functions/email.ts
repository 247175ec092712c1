// Inbound email Lambda (AWS): SES receiving stored the raw message in S3 and invokes this function; each recipient's
// mail goes through the same intake as npm start's SMTP listener. Mail for an unknown or disabled integration is
// dropped with a log line (SES has already accepted it); a mail that cannot be read is kept as a `refused` log of its
// integration by the intake (the raw mail stays in S3 for the bucket's 30 days) and never retried. docs/monitors.md, "Email".
import middy from '@middy/core';
import type { Context, SESEvent } from 'aws-lambda';
import { acceptInboundEmail } from '#lib/ingest/email/intake.ts';
import { lambdaLogging, logger } from '#lib/logger.ts';
import { readStoredMail } from '#lib/queue/inbound-mail.ts';

export const handler = middy<SESEvent, void, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    for (const record of event.Records) {
      const { mail, receipt } = record.ses;
      const raw = await readStoredMail(mail.messageId);
      for (const recipient of receipt.recipients) {
        const outcome = await acceptInboundEmail({ raw, recipient, via: 'SES', deliveryId: mail.messageId, envelopeFrom: mail.source });
        if (outcome.ok) logger.info('Inbound email queued', { messageId: mail.messageId, recipient, logId: outcome.logId });
        // 451: the queue did not take it; throwing makes Lambda retry the asynchronous invocation.
        else if (outcome.code === 451) throw new Error(`Inbound email ${mail.messageId} for ${recipient} could not be queued`);
        else if (outcome.code === 554) logger.warn('Inbound email refused: it cannot be read', { messageId: mail.messageId, recipient, reason: outcome.reason });
        else logger.info('Inbound email dropped', { messageId: mail.messageId, recipient, reason: outcome.reason });
      }
    }
  });
