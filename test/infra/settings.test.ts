// Context settings: parsing and validation, and a stack synthesized with non-default settings.

import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS, DEFAULT_SETTINGS, MAX_BODY_BYTES_LIMIT, settingsFromContext } from '../../infra/settings.ts';
import { FUNCTION_NAMES } from '../../infra/stack.ts';
import { functionLogicalId, logicalIdOf, synthHark } from './harness.ts';

const settingsOf = (context: Record<string, unknown>) => settingsFromContext(new App({ context }).node);

describe('settingsFromContext', () => {
  it('keeps the defaults when nothing is set', () => {
    expect(settingsOf({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ stackName: 'HarkStack', throttleRateLimit: 50, throttleBurstLimit: 100, webhookThrottleRateLimit: 1000, webhookThrottleBurstLimit: 2000, lambdaMemoryMb: 512 });
  });

  it('reads numbers and booleans given as strings on the command line (-c key=value)', () => {
    expect(
      settingsOf({
        [CONTEXT_KEYS.stackName]: 'HarkStaging',
        [CONTEXT_KEYS.throttleRateLimit]: '20',
        [CONTEXT_KEYS.throttleBurstLimit]: '40',
        [CONTEXT_KEYS.webhookThrottleRateLimit]: '3000',
        [CONTEXT_KEYS.webhookThrottleBurstLimit]: '6000',
        [CONTEXT_KEYS.logRetentionDays]: '90',
        [CONTEXT_KEYS.lambdaMemoryMb]: '1024',
        [CONTEXT_KEYS.alarmEmail]: 'oncall@example.com',
        [CONTEXT_KEYS.tableDeletionProtection]: 'false',
        [CONTEXT_KEYS.tableWarmWriteUnits]: '45000',
        [CONTEXT_KEYS.tableWarmReadUnits]: '15000',
        [CONTEXT_KEYS.maxBodyBytes]: '65536',
        [CONTEXT_KEYS.mailFrom]: 'Hark <alerts@example.com>',
        [CONTEXT_KEYS.smsOriginationIdentityArn]: 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-0123456789abcdef',
        [CONTEXT_KEYS.publicUrl]: 'https://alerts.example.com',
      }),
    ).toEqual({
      stackName: 'HarkStaging',
      throttleRateLimit: 20,
      throttleBurstLimit: 40,
      webhookThrottleRateLimit: 3000,
      webhookThrottleBurstLimit: 6000,
      logRetentionDays: RetentionDays.THREE_MONTHS,
      lambdaMemoryMb: 1024,
      alarmEmail: 'oncall@example.com',
      tableDeletionProtection: false,
      tableWarmWriteUnits: 45000,
      tableWarmReadUnits: 15000,
      maxBodyBytes: 65536,
      mailFrom: 'Hark <alerts@example.com>',
      smsOriginationIdentityArn: 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-0123456789abcdef',
      publicUrl: 'https://alerts.example.com',
    });
  });

  it('reads typed values from cdk.json', () => {
    expect(settingsOf({ [CONTEXT_KEYS.throttleRateLimit]: 5, [CONTEXT_KEYS.tableDeletionProtection]: false })).toMatchObject({
      throttleRateLimit: 5,
      tableDeletionProtection: false,
    });
  });

  it.each([
    [CONTEXT_KEYS.stackName, 'has spaces'],
    [CONTEXT_KEYS.stackName, '1starts-with-digit'],
    [CONTEXT_KEYS.throttleRateLimit, '0'],
    [CONTEXT_KEYS.throttleRateLimit, '12.5'],
    [CONTEXT_KEYS.throttleBurstLimit, 'lots'],
    [CONTEXT_KEYS.webhookThrottleRateLimit, '0'],
    [CONTEXT_KEYS.webhookThrottleBurstLimit, '1.5'],
    [CONTEXT_KEYS.logRetentionDays, '10'],
    [CONTEXT_KEYS.lambdaMemoryMb, '64'],
    [CONTEXT_KEYS.alarmEmail, 'not-an-address'],
    [CONTEXT_KEYS.tableDeletionProtection, 'yes'],
    [CONTEXT_KEYS.tableWarmWriteUnits, '3999'],
    [CONTEXT_KEYS.tableWarmReadUnits, '11999'],
    [CONTEXT_KEYS.maxBodyBytes, String(MAX_BODY_BYTES_LIMIT + 1)],
    [CONTEXT_KEYS.mailFrom, 'alerts'],
    [CONTEXT_KEYS.smsOriginationIdentityArn, 'arn:aws:sns:eu-west-1:123456789012:topic'],
    [CONTEXT_KEYS.publicUrl, 'http://alerts.example.com'],
    [CONTEXT_KEYS.publicUrl, 'https://alerts.example.com/?x=1'],
  ])('refuses %s = %j with a message naming the key', (key, value) => {
    expect(() => settingsOf({ [key]: value })).toThrow(key);
  });
});

describe('a stack with non-default settings', () => {
  it('applies throttling, retention, memory, body limit, alarm e-mail, deletion protection and warm throughput', () => {
    const synth = synthHark({
      settings: {
        throttleRateLimit: 7,
        throttleBurstLimit: 9,
        logRetentionDays: RetentionDays.ONE_WEEK,
        lambdaMemoryMb: 1024,
        alarmEmail: 'oncall@example.com',
        tableDeletionProtection: false,
        tableWarmWriteUnits: 45000,
        tableWarmReadUnits: 15000,
        maxBodyBytes: 65536,
      },
    });
    try {
      synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        DefaultRouteSettings: { ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 },
      });
      synth.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
      synth.template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
      // The table and every index warmed alike: an alert create writes three indexes besides the table.
      const table = Object.values(synth.json.Resources).find((r) => r.Type === 'AWS::DynamoDB::Table')!.Properties!;
      const warm = { WriteUnitsPerSecond: 45000, ReadUnitsPerSecond: 15000 };
      expect(table.WarmThroughput).toEqual(warm);
      const indexes = table.GlobalSecondaryIndexes as { WarmThroughput?: unknown }[];
      expect(indexes).toHaveLength(3);
      for (const index of indexes) expect(index.WarmThroughput).toEqual(warm);
      synth.template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'oncall@example.com',
        TopicArn: { Ref: logicalIdOf(synth.stack, synth.stack.alarms.topic) },
      });
      for (const name of FUNCTION_NAMES) {
        const props = synth.json.Resources[functionLogicalId(synth.stack, name)]!.Properties!;
        expect(props.MemorySize).toBe(name === 'fallback' ? 256 : 1024);
        expect(props.Environment).toMatchObject({ Variables: { HARK_MAX_BODY_BYTES: '65536' } });
      }
    } finally {
      rmSync(synth.outdir, { recursive: true, force: true });
    }
  }, 300_000);
});
