// The aws_cloudwatch reader: SNS signatures (versions 1 and 2) on messages signed with a test certificate, the checks
// that refuse forgeries, and CloudWatch alarms read into alert events (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reloadConfig } from '#lib/config.ts';
import { awsCloudwatchOptions, readSnsRequest, verifySnsRequest } from '#lib/monitor-readers/aws_cloudwatch.ts';
import { canonicalString, isSnsUrl, topicAllowed } from '#lib/monitor-readers/sns/message.ts';
import { consoleUrlOf } from '#lib/monitor-readers/sns/alarm.ts';
import type { ReaderRequest } from '#lib/monitor-readers/types.ts';
import { alarmFixture, SNS_FIXTURES, snsNotification, snsSubscriptionConfirmation, TEST_CERT_URL, TEST_TOPIC_ARN } from '../../support/sns.ts';

const request = (body: unknown, headers: Record<string, string> = {}): ReaderRequest => ({ method: 'POST', headers, query: {}, body, rawBody: JSON.stringify(body) });
const options = (overrides: Record<string, unknown> = {}) => awsCloudwatchOptions.parse(overrides);
const readerOptions = (overrides: Record<string, unknown> = {}, captureAdditionalData = false) => ({
  options: options(overrides),
  wrapperKey: null,
  captureAdditionalData,
  defaultUrgency: 'high' as const,
  generateId: (i: number) => `generated-${i}`,
});

let savedDir: string | undefined;
beforeAll(() => {
  savedDir = process.env.HARK_SNS_CERT_DIR;
  process.env.HARK_SNS_CERT_DIR = SNS_FIXTURES;
  reloadConfig();
});
afterAll(() => {
  if (savedDir === undefined) delete process.env.HARK_SNS_CERT_DIR;
  else process.env.HARK_SNS_CERT_DIR = savedDir;
  reloadConfig();
});

describe('SNS signatures', () => {
  it.each(['1', '2'] as const)('accepts a Notification signed with SignatureVersion %s', async (version) => {
    const message = snsNotification(alarmFixture('alarm-single-metric.json'), { version, subject: 'ALARM: "web-01 NetworkOut high" in US East (N. Virginia)' });
    expect(await verifySnsRequest(request(message, { 'x-amz-sns-message-type': 'Notification' }), options())).toEqual({ ok: true });
  });

  it.each(['1', '2'] as const)('accepts a SubscriptionConfirmation signed with SignatureVersion %s', async (version) => {
    expect(await verifySnsRequest(request(snsSubscriptionConfirmation({ version })), options())).toEqual({ ok: true });
  });

  it('signs the canonical text SNS defines: Subject only when present, the subscription fields for confirmations', () => {
    const plain = snsNotification('hello', { messageId: 'm-1' });
    expect(canonicalString(plain)).toBe(`Message\nhello\nMessageId\nm-1\nTimestamp\n${plain.Timestamp}\nTopicArn\n${TEST_TOPIC_ARN}\nType\nNotification\n`);
    const confirmation = snsSubscriptionConfirmation();
    const c = confirmation;
    expect(canonicalString(c)).toBe(
      `Message\n${c.Message}\nMessageId\n${c.MessageId}\nSubscribeURL\n${c.SubscribeURL}\nTimestamp\n${c.Timestamp}\nToken\n${c.Token}\nTopicArn\n${c.TopicArn}\nType\nSubscriptionConfirmation\n`,
    );
  });

  it.each([
    ['the message', { Message: '{"AlarmName":"forged","NewStateValue":"ALARM"}' }],
    ['the subject', { Subject: 'OK: all good' }],
    ['the topic', { TopicArn: 'arn:aws:sns:us-east-1:123456789012:other' }],
    ['the type', { Type: 'SubscriptionConfirmation' }],
    ['the version (a SHA1 signature read as SHA256)', { SignatureVersion: '2' }],
  ])('refuses a message whose %s was changed after signing', async (_what, change) => {
    const message = { ...snsNotification(alarmFixture('alarm-single-metric.json'), { subject: 'ALARM' }), ...change };
    const verdict = await verifySnsRequest(request(message), options());
    expect(verdict).toMatchObject({ ok: false, status: 403, refusal: 'invalid_signature' });
  });

  it('names a topic the options do not allow as its own refusal (one refused log a minute each: docs/ingest.md)', async () => {
    const message = snsNotification(alarmFixture('alarm-single-metric.json'), { subject: 'ALARM' });
    expect(await verifySnsRequest(request(message), options({ aws_account_ids: ['210987654321'] }))).toMatchObject({ ok: false, status: 403, refusal: 'topic_not_allowed' });
    expect(await verifySnsRequest(request(message), options())).toEqual({ ok: true });
  });

  it('refuses a certificate URL off the SNS host pattern without fetching it', async () => {
    const fetched = vi.spyOn(globalThis, 'fetch');
    for (const url of [
      'https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-hark-test.pem',
      'http://sns.us-east-1.amazonaws.com/SimpleNotificationService-hark-test.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-hark-test.pem',
      'https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-hark-test.pem',
      'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-hark-test.txt',
    ]) {
      const verdict = await verifySnsRequest(request(snsNotification('hi', { certUrl: url })), options());
      expect(verdict, url).toMatchObject({ ok: false, status: 403, reason: expect.stringContaining('SigningCertURL') });
    }
    expect(fetched).not.toHaveBeenCalled();
    fetched.mockRestore();
  });

  it('takes SNS hosts of every partition, China included', () => {
    expect(isSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/x.pem', '.pem')).toBe(true);
    expect(isSnsUrl('https://sns.us-gov-west-1.amazonaws.com/x.pem', '.pem')).toBe(true);
    expect(isSnsUrl(TEST_CERT_URL, '.pem')).toBe(true);
  });

  it('refuses a certificate HARK_SNS_CERT_DIR does not hold, a confirmation whose SubscribeURL is not SNS, and a body that is no SNS message', async () => {
    expect(await verifySnsRequest(request(snsNotification('hi', { certUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-unknown.pem' })), options())).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no certificate'),
    });
    expect(await verifySnsRequest(request(snsSubscriptionConfirmation({ subscribeUrl: 'https://evil.example/confirm' })), options())).toMatchObject({ ok: false, reason: expect.stringContaining('SubscribeURL') });
    expect(await verifySnsRequest(request({ title: 'not sns' }), options())).toMatchObject({ ok: false, status: 403, reason: expect.stringContaining('no Type') });
    expect(await verifySnsRequest(request('plain text'), options())).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses a message-type header that contradicts the message', async () => {
    const verdict = await verifySnsRequest(request(snsNotification('hi'), { 'x-amz-sns-message-type': 'SubscriptionConfirmation' }), options());
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('x-amz-sns-message-type') });
  });

  it('limits topics: the listed topic ARNs, else any topic of the listed accounts, else any', async () => {
    expect(topicAllowed(TEST_TOPIC_ARN, { topic_arns: [TEST_TOPIC_ARN], aws_account_ids: [] })).toEqual({ ok: true });
    expect(topicAllowed(TEST_TOPIC_ARN, { topic_arns: ['arn:aws:sns:us-east-1:123456789012:other'], aws_account_ids: ['123456789012'] })).toMatchObject({ ok: false });
    expect(topicAllowed(TEST_TOPIC_ARN, { topic_arns: [], aws_account_ids: ['123456789012'] })).toEqual({ ok: true });
    expect(topicAllowed(TEST_TOPIC_ARN, { topic_arns: [], aws_account_ids: ['210987654321'] })).toMatchObject({ ok: false });
    const signed = snsNotification('hi');
    expect(await verifySnsRequest(request(signed), options({ aws_account_ids: ['210987654321'] }))).toMatchObject({ ok: false, reason: expect.stringContaining('aws_account_ids') });
  });

  it('validates its options, naming the field', () => {
    const result = awsCloudwatchOptions.safeParse({ topic_arns: ['not-an-arn'], aws_account_ids: ['12'], insufficient_data: 'page' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['topic_arns.0', 'aws_account_ids.0', 'insufficient_data']);
    expect(awsCloudwatchOptions.safeParse({ unknown: 1 }).success).toBe(false);
  });
});

const readAlarmFile = (file: string, overrides: Record<string, unknown> = {}, capture = false) =>
  readSnsRequest(request(snsNotification(alarmFixture(file), { subject: 'ALARM' })), readerOptions(overrides, capture));

describe('CloudWatch alarms', () => {
  it('ALARM creates an alert keyed by the AlarmArn: title, reason and description, console link, tags from the metric', () => {
    const reading = readAlarmFile('alarm-single-metric.json');
    expect(reading.events).toHaveLength(1);
    const [event] = reading.events;
    expect(event).toMatchObject({ event: 'create', thirdpartyId: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:web-01 NetworkOut high', idGenerated: false });
    expect(event!.fields.title).toBe('web-01 NetworkOut high');
    expect(event!.fields.description).toMatch(/^Threshold Crossed: 1 out of the last 1 datapoints .*\n\nOutbound traffic of web-01 above 1 GB per minute\n\nConsole: https:\/\/us-east-1\.console\.aws\.amazon\.com\//s);
    expect(event!.fields.tag_list).toEqual(['namespace:AWS/EC2', 'metric:NetworkOut', 'InstanceId:i-0abc123def4567890']);
    expect(event!.fields.additional_data).toEqual([
      { format: 'link', label: 'CloudWatch console', value: 'https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#alarmsV2:alarm/web-01%20NetworkOut%20high' },
    ]);
    expect(event!.fields.meta).toMatchObject({ aws_account_id: '123456789012', region: 'us-east-1', old_state: 'OK' });
    expect(event!.fields).not.toHaveProperty('urgency');
  });

  it('OK resolves the same key, so ALARM → OK → ALARM makes two alerts', () => {
    const [event] = readAlarmFile('ok-single-metric.json').events;
    expect(event).toMatchObject({ event: 'resolve', thirdpartyId: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:web-01 NetworkOut high', fields: {} });
  });

  it('INSUFFICIENT_DATA is ignored with the reason by default, or creates or resolves as the option says', () => {
    expect(readAlarmFile('insufficient-data-single-metric.json')).toMatchObject({ events: [], ignoredReason: expect.stringContaining('option insufficient_data is ignore') });
    expect(readAlarmFile('insufficient-data-single-metric.json', { insufficient_data: 'create' }).events[0]).toMatchObject({ event: 'create', notes: ['INSUFFICIENT_DATA read as create (option insufficient_data)'] });
    expect(readAlarmFile('insufficient-data-single-metric.json', { insufficient_data: 'resolve' }).events[0]).toMatchObject({ event: 'resolve' });
  });

  it('a metric-math alarm: tags from every metric, its expressions in the description, console link in its region', () => {
    const [event] = readAlarmFile('alarm-metric-math.json').events;
    expect(event!.fields.tag_list).toEqual(['namespace:AWS/ApiGateway', 'metric:5XXError', 'ApiName:payments-api', 'metric:Count']);
    expect(event!.fields.description).toContain('Expressions: e1 = 100*errors/requests');
    expect(event!.fields.additional_data?.[0]?.value).toBe('https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#alarmsV2:alarm/api%205xx%20ratio');
  });

  it('a composite alarm: its rule and the children that triggered it in the description', () => {
    const [event] = readAlarmFile('alarm-composite.json').events;
    expect(event).toMatchObject({ event: 'create', thirdpartyId: 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout degraded' });
    expect(event!.fields.description).toContain('Rule: ALARM("checkout-latency") AND ALARM("checkout-errors")');
    expect(event!.fields.description).toContain('Triggered by: arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-latency (ALARM)');
    expect(event!.fields.tag_list).toEqual([]);
  });

  it('captures the alarm’s other fields when Capture Additional Data is on', () => {
    const [event] = readAlarmFile('alarm-single-metric.json', {}, true).events;
    expect(event!.fields.additional_data?.map((d) => d.label)).toEqual(['CloudWatch console', 'AlarmConfigurationUpdatedTimestamp', 'OKActions', 'AlarmActions', 'InsufficientDataActions']);
  });

  it('an alarm without AlarmArn is keyed by account and name, with a note', () => {
    const alarm = JSON.parse(alarmFixture('alarm-single-metric.json')) as Record<string, unknown>;
    delete alarm.AlarmArn;
    const reading = readSnsRequest(request(snsNotification(JSON.stringify(alarm))), readerOptions());
    expect(reading.events[0]).toMatchObject({ thirdpartyId: '123456789012:web-01 NetworkOut high', notes: [expect.stringContaining('no AlarmArn')] });
    expect(reading.events[0]!.fields.additional_data).toEqual([]);
  });

  it('console links in China and GovCloud', () => {
    expect(consoleUrlOf('aws-cn', 'cn-north-1', 'a b')).toBe('https://cn-north-1.console.amazonaws.cn/cloudwatch/home?region=cn-north-1#alarmsV2:alarm/a%20b');
    expect(consoleUrlOf('aws-us-gov', 'us-gov-west-1', 'x')).toBe('https://console.amazonaws-us-gov.com/cloudwatch/home?region=us-gov-west-1#alarmsV2:alarm/x');
  });
});

describe('other SNS messages', () => {
  it('any other notification creates an alert from the Subject, keyed by the MessageId', () => {
    const reading = readSnsRequest(request(snsNotification('Backup of db-1 failed\nexit code 2', { subject: 'Backup failed', messageId: 'msg-7' })), readerOptions());
    expect(reading.events).toEqual([
      { event: 'create', thirdpartyId: 'msg-7', idGenerated: false, fields: { title: 'Backup failed', description: 'Backup of db-1 failed\nexit code 2', meta: { topic_arn: TEST_TOPIC_ARN } }, notes: [] },
    ]);
  });

  it('without a Subject, the first line of the message is the title', () => {
    const [event] = readSnsRequest(request(snsNotification('\n  Queue depth above 1000  \nmore text')), readerOptions()).events;
    expect(event!.fields.title).toBe('Queue depth above 1000');
  });

  it('confirmations make no event; the reason says what Hark does', () => {
    expect(readSnsRequest(request(snsSubscriptionConfirmation()), readerOptions())).toMatchObject({ events: [], ignoredReason: expect.stringContaining('Hark confirms the subscription') });
    expect(readSnsRequest(request(snsSubscriptionConfirmation({ type: 'UnsubscribeConfirmation' })), readerOptions())).toMatchObject({ events: [], ignoredReason: expect.stringContaining('logged only') });
  });
});

describe('Amazon Managed Service for Prometheus', () => {
  it('an Alertmanager payload inside SNS is read as the prometheus reader reads it: one alert per group', () => {
    const reading = readSnsRequest(request(snsNotification(alarmFixture('amp-alertmanager.json'))), readerOptions());
    expect(reading.events[0]).toMatchObject({ event: 'create', fields: { title: 'node-3 memory above 95 %', urgency: 'critical' } });
    expect(new Set(reading.events.map((e) => e.thirdpartyId))).toEqual(new Set(['{}:{alertname="HighMemory"}']));
  });
});
