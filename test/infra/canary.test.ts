// The scheduled smoke check (infra/canary.ts, docs/deploy.md "Check it pages"): with `hark:canaryMinutes` a schedule,
// the canary Lambda, its secret, the metric filters of its log line and three alarms on the operators' topic;
// without it, none of them.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_METRICS } from '../../infra/canary.ts';
import { CHECK_FINISHED_LOG_MESSAGE } from '../../lib/smoke-check/report.ts';
import { actionsOf, getAtt, resourcesOf, synthHark, type Statement, type Synthesized } from './harness.ts';

let withCanary: Synthesized;
let without: Synthesized;

beforeAll(() => {
  withCanary = synthHark({ nag: true, context: { 'hark:canaryMinutes': 5, 'hark:canaryMaxSeconds': '45' } });
  without = synthHark({ nag: true });
}, 300_000);

afterAll(() => {
  for (const synth of [withCanary, without]) if (synth) rmSync(synth.outdir, { recursive: true, force: true });
});

const ofType = (synth: Synthesized, type: string) => Object.entries(synth.json.Resources).filter(([, r]) => r.Type === type);
const canaryFunction = (synth: Synthesized) => ofType(synth, 'AWS::Lambda::Function').find(([, r]) => String(r.Properties!.Description).startsWith('Hark canary'));

describe('with hark:canaryMinutes', () => {
  it('runs the canary Lambda on a schedule of that rate, invoking only it, without retries', () => {
    const [fnId, fn] = canaryFunction(withCanary)!;
    const schedules = ofType(withCanary, 'AWS::Scheduler::Schedule').filter(([, s]) => String(s.Properties!.Description).includes('smoke check'));
    expect(schedules).toHaveLength(1);
    const props = schedules[0]![1].Properties!;
    expect(props.ScheduleExpression).toBe('rate(5 minutes)');
    expect(props.Target).toMatchObject({ Arn: getAtt(fnId), RetryPolicy: { MaximumRetryAttempts: 0 } });
    const roleId = (props.Target as { RoleArn: { 'Fn::GetAtt': [string] } }).RoleArn['Fn::GetAtt'][0];
    const statements = ofType(withCanary, 'AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(statements.flatMap(actionsOf)).toEqual(['lambda:InvokeFunction']);
    expect(statements.flatMap(resourcesOf)).toEqual([getAtt(fnId)]);
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Timeout: 180 });
  });

  it('checks the public URL with the key of a secret only the canary reads', () => {
    const [, fn] = canaryFunction(withCanary)!;
    const variables = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
    const [secretId] = ofType(withCanary, 'AWS::SecretsManager::Secret').find(([, s]) => String(s.Properties!.Description).startsWith('Hark canary'))!;
    expect(variables.HARK_CANARY_SECRET_ARN).toEqual({ Ref: secretId });
    expect(variables.HARK_URL).toBeDefined();
    expect(JSON.stringify(variables.HARK_URL)).toContain('execute-api');
    const readers = ofType(withCanary, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties!.PolicyDocument).includes(`"Ref":"${secretId}"`));
    expect(readers).toHaveLength(1);
    const roleRef = (fn.Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    expect(readers[0]![1].Properties!.Roles).toEqual([{ Ref: roleRef }]);
    expect(withCanary.json.Outputs!.CanarySecretArn!.Value).toEqual({ Ref: secretId });
  });

  it('counts, fails and times each check from its log line', () => {
    const filters = ofType(withCanary, 'AWS::Logs::MetricFilter').filter(([, f]) => String(f.Properties!.FilterPattern).includes(CHECK_FINISHED_LOG_MESSAGE));
    const byMetric = Object.fromEntries(
      filters.map(([, f]) => {
        const [transformation] = f.Properties!.MetricTransformations as { MetricName: string; MetricValue: string; MetricNamespace: string }[];
        return [transformation!.MetricName, { pattern: String(f.Properties!.FilterPattern), value: transformation!.MetricValue, namespace: transformation!.MetricNamespace }];
      }),
    );
    expect(byMetric[CANARY_METRICS.checks]).toEqual({ pattern: `{ $.message = "${CHECK_FINISHED_LOG_MESSAGE}" }`, value: '1', namespace: 'Hark' });
    expect(byMetric[CANARY_METRICS.failures]).toMatchObject({ pattern: expect.stringContaining('$.ok IS FALSE'), value: '1' });
    expect(byMetric[CANARY_METRICS.latency]).toMatchObject({ pattern: expect.stringContaining('$.ok IS TRUE'), value: '$.end_to_end_ms' });
  });

  it('alarms on the operators\' topic: a failed check, no check in two intervals, a check over the threshold', () => {
    const topicId = ofType(withCanary, 'AWS::SNS::Topic')[0]![0];
    const alarms = Object.fromEntries(ofType(withCanary, 'AWS::CloudWatch::Alarm').map(([, a]) => [a.Properties!.MetricName, a.Properties!]));
    expect(alarms[CANARY_METRICS.failures]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Period: 300, TreatMissingData: 'notBreaching' });
    expect(alarms[CANARY_METRICS.checks]).toMatchObject({ Threshold: 1, ComparisonOperator: 'LessThanThreshold', Period: 600, TreatMissingData: 'breaching' });
    expect(alarms[CANARY_METRICS.latency]).toMatchObject({ Threshold: 45_000, Statistic: 'Maximum', ComparisonOperator: 'GreaterThanThreshold' });
    for (const metric of Object.values(CANARY_METRICS)) {
      expect(alarms[metric]!.AlarmActions, metric).toEqual([{ Ref: topicId }]);
      expect(alarms[metric]!.OKActions, metric).toEqual([{ Ref: topicId }]);
    }
  });

  it('keeps cdk-nag clean', () => {
    const report = JSON.parse(readFileSync(join(withCanary.assembly.directory, 'validation-report.json'), 'utf8')) as { pluginReports: { conclusion: string; violations: { ruleName: string }[] }[] };
    expect(report.pluginReports.flatMap((p) => p.violations.map((v) => v.ruleName))).toEqual([]);
    expect(report.pluginReports.every((p) => p.conclusion === 'success')).toBe(true);
  });
});

describe('without hark:canaryMinutes', () => {
  it('has no canary: no function, schedule, secret, metric filter, alarm or output of it', () => {
    expect(canaryFunction(without)).toBeUndefined();
    expect(ofType(without, 'AWS::Scheduler::Schedule')).toHaveLength(1);
    expect(JSON.stringify(without.json)).not.toContain('Hark canary');
    expect(JSON.stringify(without.json)).not.toContain(CHECK_FINISHED_LOG_MESSAGE);
    expect(without.json.Outputs).not.toHaveProperty('CanarySecretArn');
    expect(Object.keys(withCanary.json.Resources).length - Object.keys(without.json.Resources).length).toBe(14);
  });

  it.each([
    [{ 'hark:canaryMinutes': 0 }, 'Context hark:canaryMinutes must be a whole number from 1 to 1440, got 0'],
    [{ 'hark:canaryMinutes': 'often' }, 'Context hark:canaryMinutes must be a whole number from 1 to 1440, got "often"'],
    [{ 'hark:canaryMinutes': 5, 'hark:canaryMaxSeconds': 1 }, 'Context hark:canaryMaxSeconds must be a whole number from 5 to 600, got 1'],
    [{ 'hark:canaryMaxSeconds': 30 }, 'Context hark:canaryMaxSeconds needs hark:canaryMinutes: there is no canary without it'],
  ])('refuses context %j', (context, message) => {
    expect(() => synthHark({ context })).toThrow(message);
  });
});
