// The events AWS sends Hark's functions, built locally in their AWS shapes: EventBridge Scheduler's default event to a
// Lambda target (the sweeper) and SES receiving's Lambda action event (the email function). The HTTP API's payload 2.0
// is built by the gateway (lib/local/gateway.ts, toEvent), SQS batches by the poller (lib/local/poller.ts).
import type { SESEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

const LOCAL_ACCOUNT = '000000000000';

/** What EventBridge Scheduler sends a Lambda target that has no Input of its own. */
export function scheduledEvent(scheduleName: string, region = process.env.AWS_REGION ?? 'us-east-1', now = new Date()) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.scheduler',
    account: LOCAL_ACCOUNT,
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:scheduler:${region}:${LOCAL_ACCOUNT}:schedule/default/${scheduleName}`],
    detail: '{}',
  };
}

export interface ReceivedMail {
  /** SES's message id: the stored object's key is the rule's prefix followed by it. */
  messageId: string;
  /** The envelope sender (MAIL FROM). */
  source: string;
  /** The envelope recipients the rule matched. */
  recipients: string[];
  headers: { name: string; value: string }[];
  functionArn: string;
  now?: Date;
}

/** The event of a receipt rule's Lambda action (invocation type Event), the rule's S3 action having stored the mail. */
export function sesReceiptEvent(mail: ReceivedMail): SESEvent {
  const timestamp = (mail.now ?? new Date()).toISOString();
  const header = (name: string) => mail.headers.find((h) => h.name.toLowerCase() === name)?.value;
  const pass = { status: 'PASS' };
  return {
    Records: [
      {
        eventSource: 'aws:ses',
        eventVersion: '1.0',
        ses: {
          mail: {
            timestamp,
            source: mail.source,
            messageId: mail.messageId,
            destination: mail.recipients,
            headersTruncated: false,
            headers: mail.headers,
            commonHeaders: {
              returnPath: mail.source,
              from: header('from') ? [header('from')!] : [],
              date: header('date') ?? timestamp,
              to: header('to') ? [header('to')!] : [],
              messageId: header('message-id') ?? mail.messageId,
              subject: header('subject') ?? '',
            },
          },
          receipt: {
            timestamp,
            processingTimeMillis: 1,
            recipients: mail.recipients,
            spamVerdict: pass,
            virusVerdict: pass,
            spfVerdict: pass,
            dkimVerdict: pass,
            dmarcVerdict: pass,
            dmarcPolicy: 'none',
            action: { type: 'Lambda', functionArn: mail.functionArn, invocationType: 'Event' },
          },
        },
      },
    ],
  } as SESEvent;
}
