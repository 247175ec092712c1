// Opsgenie's heartbeat intervals as Hark's interval_seconds and back (lib/ingest/opsgenie/heartbeat-admin.ts).
import { describe, expect, it } from 'vitest';
import { heartbeatAdminSegments } from '#lib/ingest/opsgenie/intake.ts';
import { intervalSeconds, opsgenieInterval } from '#lib/ingest/opsgenie/heartbeat-admin.ts';

describe('heartbeat intervals', () => {
  it('interval × unit, within 1 minute and 7 days; units minutes, hours, days only', () => {
    const errors: Record<string, string> = {};
    expect([intervalSeconds(10, 'minutes', errors), intervalSeconds(2, 'hours', errors), intervalSeconds(7, 'days', errors)]).toEqual([600, 7200, 604_800]);
    expect(errors).toEqual({});
    const bad: Record<string, string> = {};
    expect(intervalSeconds(8, 'days', bad)).toBeUndefined();
    expect(bad).toEqual({ interval: 'interval must be from 1 minute to 7 days.' });
    const unit: Record<string, string> = {};
    expect(intervalSeconds(30, 'seconds', unit)).toBeUndefined();
    expect(unit).toEqual({ intervalUnit: 'intervalUnit must be one of minutes, hours, days.' });
    const whole: Record<string, string> = {};
    expect(intervalSeconds(1.5, 'hours', whole)).toBeUndefined();
    expect(whole).toEqual({ interval: 'interval must be a whole number of at least 1.' });
  });

  it('reads back in the largest unit that divides it', () => {
    expect([opsgenieInterval(86_400 * 2), opsgenieInterval(5400), opsgenieInterval(90)]).toEqual([
      { interval: 2, intervalUnit: 'days' },
      { interval: 90, intervalUnit: 'minutes' },
      { interval: 2, intervalUnit: 'minutes' },
    ]);
  });

  it('tells the admin calls from a ping', () => {
    expect(heartbeatAdminSegments('/v2/heartbeats')).toEqual([]);
    expect(heartbeatAdminSegments('/integration/int_x/v2/heartbeats/nightly%20job/enable')).toEqual(['nightly job', 'enable']);
    expect(heartbeatAdminSegments('/v2/heartbeats/nightly/ping')).toBeUndefined();
    expect(heartbeatAdminSegments('/v2/alerts')).toBeUndefined();
  });
});
