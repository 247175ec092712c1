// Amazon SNS → an aws_cloudwatch integration through the gateway, as SNS sends it (Content-Type text/plain, its
// x-amz-sns-* headers), signed with the test-only certificate HARK_SNS_CERT_DIR serves: recorded CloudWatch alarm
// payloads create and resolve alerts keyed by the AlarmArn, SNS's retries of one message apply once, forgeries are
// refused 403 and change nothing, a SubscriptionConfirmation shows on the integration. docs/monitors.md.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, alertsWithThirdpartyId, errorMessages, newAccount, pollUntil, request, type TestAccount } from './helpers.ts';
import { alarmFixture, snsNotification, snsSubscriptionConfirmation, TEST_TOPIC_ARN } from '../support/sns.ts';
import type { SnsMessage } from '#lib/monitor-readers/sns/message.ts';

let acme: TestAccount;
let hook: { id: string; prefix_id: string };
const ARN = 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:web-01 NetworkOut high';

beforeAll(async () => {
  acme = await newAccount('SNS');
  const bob = await addAccountUser(acme);
  const reply = await acme.api('POST', '/integrations', { name: 'CloudWatch', integration_type_id: 'aws_cloudwatch', account_user_ids: [bob.id], options: { aws_account_ids: ['123456789012'] } });
  expect(reply.status, reply.text).toBe(201);
  hook = reply.body;
});

/** Posts a message as SNS does: text/plain, the message type and topic headers. */
const deliver = (message: SnsMessage | Record<string, unknown>, headers: Record<string, string> = {}) =>
  request('POST', `/integration/${hook.prefix_id}`, {
    rawBody: JSON.stringify(message),
    headers: {
      'content-type': 'text/plain; charset=UTF-8',
      'user-agent': 'Amazon Simple Notification Service Agent',
      'x-amz-sns-message-type': String(message.Type),
      'x-amz-sns-message-id': String(message.MessageId),
      'x-amz-sns-topic-arn': String(message.TopicArn),
      ...headers,
    },
  });

/**
 * Delivers a fresh message and waits until the worker has applied it (its log tells what it became). A monitor type's
 * requests share the integration's one message group and apply in the order accepted (docs/ingest.md), so once this
 * one is applied every request accepted before it has been too: a look after it misses nothing still on its way.
 */
async function fence(): Promise<void> {
  const reply = await deliver(snsNotification(alarmFixture('insufficient-data-single-metric.json'), { messageId: randomUUID() }));
  expect(reply.status, reply.text).toBe(200);
  await pollUntil(async () => {
    const log = await acme.api('GET', `/logs/${reply.body.log_id}`);
    return log.status === 200 && (log.body.details?.sublogs?.length ?? 0) > 0 ? true : undefined;
  }, 20_000);
}

const alarm = (file: string, version: '1' | '2' = '1', messageId?: string) =>
  snsNotification(alarmFixture(file), { version, subject: `ALARM: "web-01 NetworkOut high" in US East (N. Virginia)`, ...(messageId ? { messageId } : {}) });

describe('CloudWatch alarms through SNS', () => {
  it('ALARM creates, OK resolves, ALARM again makes a second alert; both signature versions', async () => {
    expect((await deliver(alarm('alarm-single-metric.json', '1'))).status).toBe(200);
    const [first] = await alertsWithThirdpartyId(acme, ARN);
    expect(first).toMatchObject({ title: 'web-01 NetworkOut high', status: 'open', tags: expect.arrayContaining(['namespace:AWS/EC2', 'InstanceId:i-0abc123def4567890']) });
    expect(first.additional_data).toContainEqual({ format: 'link', label: 'CloudWatch console', value: expect.stringContaining('us-east-1.console.aws.amazon.com') });

    expect((await deliver(alarm('ok-single-metric.json', '2'))).status).toBe(200);
    await alertsWithThirdpartyId(acme, ARN, (alerts) => alerts.length === 1 && alerts[0].status === 'resolved');

    expect((await deliver(alarm('alarm-single-metric.json', '2'))).status).toBe(200);
    const alerts = await alertsWithThirdpartyId(acme, ARN, (a) => a.length === 2);
    expect(alerts.map((a) => a.status).sort()).toEqual(['open', 'resolved']);
  });

  it('SNS retrying one message (same MessageId) applies it once', async () => {
    const message = snsNotification(alarmFixture('alarm-composite.json'), { subject: 'ALARM: "checkout degraded"' });
    const answers = [await deliver(message), await deliver(message), await deliver(message)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.log_id)).size).toBe(1);
    const [alert] = await alertsWithThirdpartyId(acme, 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout degraded');
    await fence();
    const again = (await acme.api('GET', `/alerts/${alert.id}`)).body;
    expect(again.dedup_count ?? 0).toBe(0);
    expect((await acme.api('GET', `/alerts?thirdparty_id=${encodeURIComponent('arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout degraded')}`)).body.data).toHaveLength(1);
  });

  it('refuses a tampered message, a certificate off the SNS hosts and another account’s topic with 403, changing nothing', async () => {
    const forged = { ...alarm('alarm-metric-math.json'), Subject: 'changed after signing' };
    const offHost = snsNotification(alarmFixture('alarm-metric-math.json'), { certUrl: 'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-hark-test.pem' });
    const otherAccount = snsNotification(alarmFixture('alarm-metric-math.json'), { topicArn: 'arn:aws:sns:us-east-1:210987654321:theirs' });
    for (const message of [forged, offHost, otherAccount]) {
      const reply = await deliver(message);
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)[0]).toMatch(/^Amazon SNS message refused: /);
    }
    const plain = await request('POST', `/integration/${hook.prefix_id}`, { body: { title: 'not from SNS' } });
    expect(plain.status).toBe(403);
    // Each is kept as the integration's refused log, by reason (docs/ingest.md, "Refused requests"): another account's
    // topic apart from the messages that cannot be shown to be SNS's.
    const refused = ((await acme.api('GET', `/logs?owner_id=${hook.id}&limit=100`)).body.data as { details: { refused?: { reason: string; count: number } } }[]).flatMap((log) => (log.details.refused ? [log.details.refused] : []));
    const counted = (reason: string) => refused.filter((r) => r.reason === reason).reduce((sum, r) => sum + r.count, 0);
    expect([counted('topic_not_allowed'), counted('invalid_signature')]).toEqual([1, 3]);
    await fence();
    expect((await acme.api('GET', `/alerts?thirdparty_id=${encodeURIComponent('arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api 5xx ratio')}`)).body.data).toEqual([]);
  });

  it('a SubscriptionConfirmation is verified, tried, and shown on the integration with its SubscribeURL when it could not be confirmed', async () => {
    const confirmation = snsSubscriptionConfirmation();
    const reply = await deliver(confirmation);
    expect(reply.status).toBe(200);
    const integration = (await acme.api('GET', `/integrations/${hook.id}`)).body;
    // The test machine cannot reach SNS: the confirmation fails and the URL is kept for an admin.
    expect(integration.subscriptions).toEqual([{ topic_arn: TEST_TOPIC_ARN, status: 'failed', confirmed_at: null, subscribe_url: confirmation.SubscribeURL, failure_reason: expect.any(String) }]);
    const log = await pollUntil(async () => {
      const got = await acme.api('GET', `/logs/${reply.body.log_id}`);
      return got.status === 200 && got.body.details.sublogs.length ? got.body.details : undefined;
    });
    expect(JSON.stringify(log.sublogs)).toContain('Could not confirm the subscription');
  });
});
