import { describe, expect, it } from 'vitest';
import { ALERT_STATUSES, transition, type AlertAction, type AlertStatus } from '#lib/escalation-engine/index.ts';

const allowed: Record<AlertAction, Partial<Record<AlertStatus, AlertStatus>>> = {
  acknowledge: { open: 'acknowledged', dropped: 'acknowledged', suppressed: 'acknowledged' },
  resolve: { open: 'resolved', dropped: 'resolved', acknowledged: 'resolved' },
  reject: { open: 'open' },
};

const refusals: Record<AlertAction, string> = {
  acknowledge: 'only an open, dropped or suppressed alert can be acknowledged',
  resolve: 'only an open, dropped or acknowledged alert can be resolved',
  reject: 'only an open alert can be rejected',
};

describe('transition', () => {
  for (const action of ['acknowledge', 'resolve', 'reject'] as const) {
    for (const status of ALERT_STATUSES) {
      const to = allowed[action][status];
      if (to) {
        it(`${action} from ${status} → ${to}`, () => {
          expect(transition(status, action)).toEqual({ ok: true, status: to });
        });
      } else {
        it(`${action} from ${status} is refused, naming the status`, () => {
          expect(transition(status, action)).toEqual({ ok: false, message: `status is ${status}; ${refusals[action]}` });
        });
      }
    }
  }

  it('resolved is terminal: no action leaves it', () => {
    for (const action of ['acknowledge', 'resolve', 'reject'] as const) expect(transition('resolved', action).ok).toBe(false);
  });
});
