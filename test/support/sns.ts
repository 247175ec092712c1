// Amazon SNS messages signed as SNS signs them, with the test-only key of test/fixtures/monitors/aws_cloudwatch
// (its certificate is the PEM HARK_SNS_CERT_DIR serves in tests). docs/monitors.md, "Amazon CloudWatch (Amazon SNS)".
import { createSign, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalString, type SnsMessage } from '#lib/monitor-readers/sns/message.ts';

export const SNS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'monitors', 'aws_cloudwatch');
export const TEST_CERT_FILE = 'SimpleNotificationService-hark-test.pem';
export const TEST_CERT_URL = `https://sns.us-east-1.amazonaws.com/${TEST_CERT_FILE}`;
export const TEST_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:hark-alarms';
const KEY = readFileSync(join(SNS_FIXTURES, 'SimpleNotificationService-hark-test.key'), 'utf8');

/** A fixture's alarm message (the SNS Message's JSON), as text. */
export const alarmFixture = (file: string): string => JSON.stringify(JSON.parse(readFileSync(join(SNS_FIXTURES, file), 'utf8')));

/** Signs the message's canonical text with the test key: version 1 SHA1withRSA, 2 SHA256withRSA. */
export function signSns(message: Omit<SnsMessage, 'Signature'>): SnsMessage {
  const signer = createSign(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
  signer.update(canonicalString({ ...message, Signature: '' }), 'utf8');
  return { ...message, Signature: signer.sign(KEY, 'base64') };
}

export function snsNotification(body: string, options: { subject?: string; version?: '1' | '2'; topicArn?: string; messageId?: string; certUrl?: string } = {}): SnsMessage {
  return signSns({
    Type: 'Notification',
    MessageId: options.messageId ?? randomUUID(),
    TopicArn: options.topicArn ?? TEST_TOPIC_ARN,
    ...(options.subject !== undefined ? { Subject: options.subject } : {}),
    Message: body,
    Timestamp: '2026-11-26T17:44:27.321Z',
    SignatureVersion: options.version ?? '1',
    SigningCertURL: options.certUrl ?? TEST_CERT_URL,
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${TEST_TOPIC_ARN}:0d9e1c2b`,
  });
}

export function snsSubscriptionConfirmation(options: { type?: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation'; version?: '1' | '2'; subscribeUrl?: string; topicArn?: string } = {}): SnsMessage {
  const token = '2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736';
  const topicArn = options.topicArn ?? TEST_TOPIC_ARN;
  return signSns({
    Type: options.type ?? 'SubscriptionConfirmation',
    MessageId: randomUUID(),
    Token: token,
    TopicArn: topicArn,
    Message: `You have chosen to subscribe to the topic ${topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
    SubscribeURL: options.subscribeUrl ?? `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${topicArn}&Token=${token}`,
    Timestamp: '2026-11-26T17:40:00.000Z',
    SignatureVersion: options.version ?? '1',
    SigningCertURL: TEST_CERT_URL,
  });
}
