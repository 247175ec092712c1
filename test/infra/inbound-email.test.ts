// SES receiving for email integrations (docs/monitors.md, "Email"): nothing without `hark:inboundEmailDomain`; with
// it, a receipt rule for the domain that stores the raw message in an encrypted, private, TLS-only bucket and then
// invokes the email Lambda, which may read those messages and queue requests, nothing more; cdk-nag finds nothing.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFromContext } from '../../infra/settings.ts';
import { App } from 'aws-cdk-lib';
import { synthHark, type Synthesized } from './harness.ts';

let plain: Synthesized;
let configured: Synthesized;

beforeAll(() => {
  plain = synthHark({});
  configured = synthHark({ nag: true, settings: { inboundEmailDomain: 'alerts.example.com' } });
}, 300_000);

afterAll(() => {
  for (const s of [plain, configured]) if (s) rmSync(s.outdir, { recursive: true, force: true });
});

const ofType = (s: Synthesized, type: string) => Object.entries(s.json.Resources).filter(([, r]) => r.Type === type);

describe('inbound email', () => {
  it('creates nothing without hark:inboundEmailDomain', () => {
    expect(ofType(plain, 'AWS::SES::ReceiptRule')).toEqual([]);
    expect(ofType(plain, 'AWS::S3::Bucket')).toEqual([]);
  });

  it('a receipt rule for the domain: TLS required, scanned, S3 then the email Lambda', () => {
    const [[, rule]] = ofType(configured, 'AWS::SES::ReceiptRule') as unknown as [[string, { Properties: any }]];
    expect(rule.Properties.Rule).toMatchObject({ Recipients: ['alerts.example.com'], ScanEnabled: true, TlsPolicy: 'Require', Enabled: true });
    const actions = rule.Properties.Rule.Actions as Record<string, any>[];
    expect(actions.map((a) => Object.keys(a)[0])).toEqual(['S3Action', 'LambdaAction']);
    expect(actions[0]!.S3Action.ObjectKeyPrefix).toBe('inbound/');
    expect(actions[1]!.LambdaAction.InvocationType).toBe('Event');
  });

  it('keeps messages in an encrypted, private, TLS-only, access-logged bucket for 30 days', () => {
    const buckets = ofType(configured, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(2);
    for (const [, bucket] of buckets) {
      expect(bucket.Properties).toMatchObject({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        LifecycleConfiguration: { Rules: [{ ExpirationInDays: 30, Status: 'Enabled' }] },
      });
    }
    const policies = JSON.stringify(ofType(configured, 'AWS::S3::BucketPolicy'));
    expect(policies).toContain('aws:SecureTransport');
    expect(policies).toContain('ses.amazonaws.com');
  });

  it('gives the email Lambda the domain, the bucket and the ingest queue, and the integrations API the domain', () => {
    const lambdas = ofType(configured, 'AWS::Lambda::Function').map(([, r]) => r.Properties as any);
    const email = lambdas.find((l) => l.Environment?.Variables?.HARK_INBOUND_EMAIL_BUCKET);
    expect(email.Environment.Variables).toMatchObject({ HARK_INBOUND_EMAIL_DOMAIN: 'alerts.example.com', HARK_INGEST_QUEUE_URL: expect.anything() });
    expect(lambdas.filter((l) => l.Environment?.Variables?.HARK_INBOUND_EMAIL_DOMAIN)).toHaveLength(2);
  });

  it('reports no cdk-nag finding', () => {
    const report = JSON.parse(readFileSync(join(configured.assembly.directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; violations: { ruleName: string; severity: string; violatingConstructs?: { constructPath: string }[] }[] }[];
    };
    expect(report.pluginReports.flatMap((p) => p.violations.map((v) => `${v.ruleName}: ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`))).toEqual([]);
  });

  it('refuses a context value that is no domain', () => {
    const app = new App({ context: { 'hark:inboundEmailDomain': 'not a domain' } });
    expect(() => settingsFromContext(app.node)).toThrow(/hark:inboundEmailDomain must be a domain name/);
  });
});
