// Amazon CloudWatch alarms (and anything else) through an Amazon SNS HTTPS subscription: every message's signature
// is verified at intake, then read (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)").
import { z } from 'zod';
import { NAME_LENGTH, SNS_TOPICS_PER_INTEGRATION, TEXT_LENGTH } from '../limits.ts';
import { INSUFFICIENT_DATA_ACTIONS, isAlarmMessage, readAlarm, type InsufficientDataAction } from './sns/alarm.ts';
import { signingCertificate } from './sns/certificates.ts';
import { isSnsUrl, signatureMatches, snsMessageOf, topicAllowed, topicArnParts, type SnsMessage } from './sns/message.ts';
import { alertGroupOptions } from './alert-groups.ts';
import { cutText } from './fields.ts';
import { prometheusReader } from './prometheus.ts';
import type { IntegrationReader, ReaderOptions, ReaderRequest, Reading } from './types.ts';

export const awsCloudwatchOptions = z
  .object({
    topic_arns: z
      .array(z.string().refine((arn) => topicArnParts(arn) !== undefined, 'must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>)'))
      .max(SNS_TOPICS_PER_INTEGRATION, `must hold at most ${SNS_TOPICS_PER_INTEGRATION} topics`)
      .default([]),
    aws_account_ids: z
      .array(z.string().regex(/^\d{12}$/, 'must be a 12-digit AWS account id'))
      .max(SNS_TOPICS_PER_INTEGRATION, `must hold at most ${SNS_TOPICS_PER_INTEGRATION} accounts`)
      .default([]),
    insufficient_data: z.enum(INSUFFICIENT_DATA_ACTIONS, { error: `must be one of ${INSUFFICIENT_DATA_ACTIONS.join(', ')}` }).default('ignore'),
  })
  .strict();
export type AwsCloudwatchOptions = z.output<typeof awsCloudwatchOptions>;

const optionsOf = (options: Record<string, unknown>): AwsCloudwatchOptions => awsCloudwatchOptions.parse(options);

type Verdict = { ok: true } | { ok: false; status: 403; reason: string; refusal: 'topic_not_allowed' | 'invalid_signature' };
/** A topic the options do not allow is its own refusal; anything else means the message cannot be shown to be SNS's. */
const refuse = (reason: string, refusal: 'topic_not_allowed' | 'invalid_signature' = 'invalid_signature'): Verdict => ({ ok: false, status: 403, reason: `Amazon SNS message refused: ${reason}`, refusal });

/**
 * Every check SNS's own guidance names, before anything is queued: the shape, the topic, the certificate's URL (only
 * SNS's hosts; nothing else is fetched), the SubscribeURL's host, and the RSA signature over the canonical text.
 */
export async function verifySnsRequest(request: ReaderRequest, options: Record<string, unknown>): Promise<Verdict> {
  const parsed = snsMessageOf(request.body);
  if (!parsed.ok) return refuse(parsed.reason);
  const message = parsed.message;
  const header = request.headers['x-amz-sns-message-type'];
  if (header !== undefined && header !== message.Type) return refuse(`the x-amz-sns-message-type header (${cutText(header, 40)}) is not the message's Type (${message.Type})`);
  const topic = topicAllowed(message.TopicArn, optionsOf(options));
  if (!topic.ok) return refuse(topic.reason, 'topic_not_allowed');
  if (message.Type !== 'Notification' && !isSnsUrl(message.SubscribeURL!)) return refuse('SubscribeURL is not an Amazon SNS URL');
  const certificate = await signingCertificate(message.SigningCertURL);
  if (!certificate.ok) return refuse(certificate.reason);
  if (!signatureMatches(message, certificate.pem)) return refuse(`the signature (version ${message.SignatureVersion}) does not match the message`);
  return { ok: true };
}

function firstLine(text: string): string {
  return text.split(/\r?\n/).find((line) => line.trim() !== '')?.trim() ?? '';
}

/** A Notification that is no CloudWatch alarm: one alert from its Subject (or first line) with the message as description. */
function readOtherNotification(message: SnsMessage): Reading {
  const notes: string[] = [];
  const title = message.Subject?.trim() || firstLine(message.Message) || `SNS message from ${message.TopicArn}`;
  if (title.length > NAME_LENGTH) notes.push(`Title cut to ${NAME_LENGTH} characters`);
  if (message.Message.length > TEXT_LENGTH) notes.push(`Description cut to ${TEXT_LENGTH} characters`);
  return {
    events: [
      {
        event: 'create',
        thirdpartyId: message.MessageId,
        idGenerated: false,
        fields: { title: cutText(title, NAME_LENGTH), description: message.Message.trim() === '' ? null : cutText(message.Message, TEXT_LENGTH), meta: { topic_arn: message.TopicArn } },
        notes,
      },
    ],
    notes: [],
  };
}

function parsedMessage(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a verified SNS message: a Notification becomes events; a (un)subscription makes none (the worker confirms). */
export function readSnsRequest(request: ReaderRequest, options: ReaderOptions): Reading {
  const parsed = snsMessageOf(request.body);
  if (!parsed.ok) return { events: [], ignoredReason: `Not an Amazon SNS message: ${parsed.reason}`, notes: [] };
  const message = parsed.message;
  if (message.Type === 'SubscriptionConfirmation') {
    return { events: [], ignoredReason: `SubscriptionConfirmation of topic ${message.TopicArn}: no alert; Hark confirms the subscription`, notes: [] };
  }
  if (message.Type === 'UnsubscribeConfirmation') {
    return { events: [], ignoredReason: `UnsubscribeConfirmation of topic ${message.TopicArn}: logged only, no alert changed`, notes: [] };
  }
  const body = parsedMessage(message.Message);
  if (isAlarmMessage(body)) {
    const insufficientData = (optionsOf(options.options).insufficient_data ?? 'ignore') as InsufficientDataAction;
    const alarm = readAlarm(body, { insufficientData, captureAdditionalData: options.captureAdditionalData });
    return alarm.event ? { events: [alarm.event], notes: [] } : { events: [], ignoredReason: alarm.ignoredReason!, notes: [] };
  }
  // Amazon Managed Service for Prometheus sends Alertmanager's webhook payload as the Message: read as prometheus reads it.
  if (isAlertmanagerPayload(body)) {
    const inner: ReaderRequest = { ...request, body, rawBody: message.Message };
    return prometheusReader.read(inner, { ...options, options: alertGroupOptions.parse({}) as Record<string, unknown> });
  }
  return readOtherNotification(message);
}

const isAlertmanagerPayload = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>).alerts) && typeof (value as Record<string, unknown>).status === 'string';

/** SNS retries one message with the same MessageId: one request, applied once. */
export function snsRequestKey(request: ReaderRequest): string | undefined {
  const parsed = snsMessageOf(request.body);
  return parsed.ok ? `sns:${parsed.message.MessageId}` : undefined;
}

/** A verified SubscriptionConfirmation is confirmed at once (SNS waits for it); its outcome goes into the request's log. */
export const awsCloudwatchReader: IntegrationReader = {
  id: 'aws_cloudwatch',
  name: 'Amazon CloudWatch (Amazon SNS)',
  description: 'CloudWatch alarms, and any other Amazon SNS notification, through an HTTPS subscription; every message’s signature is verified.',
  docs: 'docs/monitors.md#amazon-cloudwatch-amazon-sns',
  options: awsCloudwatchOptions,
  // SNS sends text/plain; the body is read as JSON whatever its Content-Type.
  verify: verifySnsRequest,
  requestKey: snsRequestKey,
  read: readSnsRequest,
};
