import { describe, expect, it } from 'vitest';
import { accountUserDestination, openWorkflowsOf, peopleToTell, pendingTimers, step } from '#lib/escalation-engine/index.ts';
import { onCallAt } from '#lib/schedule-engine/index.ts';
import { MINUTE, Run, T0, at, shift, team } from './harness.ts';

const THREE_LAYERS = [
  { layer: 1, timeout: 5 },
  { layer: 2, timeout: 10 },
  { layer: 3, timeout: 15 },
];

/** Team tem_ops: Alice on layer 1, Bob on layer 2, Charlie on layer 3, all day. */
function opsRun(timeScale = 1): Run {
  const run = new Run(timeScale);
  run.schedules.sch_ops = [shift('sch_ops', 1, ['alice']), shift('sch_ops', 2, ['bob']), shift('sch_ops', 3, ['charlie'])];
  return run;
}

describe('escalation through three layers with repeat 1', () => {
  it('pages Alice at 0, Bob at 5, Charlie at 15, everyone again from 30, and drops at 60', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS, repeat: 1 }));
    expect(run.state.status).toBe('open');
    run.runUntil(at(120));

    expect(run.pages()).toEqual(['0 alice L1/P1', '5 bob L2/P1', '15 charlie L3/P1', '30 alice L1/P2', '35 bob L2/P2', '45 charlie L3/P2']);
    expect(run.ofType('scheduleTimer').map((t) => (t.timer.dueAt - T0) / MINUTE)).toEqual([5, 15, 30, 35, 45, 60]);
    expect(run.ofType('page').map((p) => p.reason)).toEqual(['start', 'timeout', 'timeout', 'repeat', 'timeout', 'timeout']);
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('drop')).toEqual([{ type: 'drop', reason: 'nobody acknowledged and nobody is left to page' }]);
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'ops' }]);
    const dropAt = run.effects.find((r) => r.effect.type === 'drop')!.at;
    expect(dropAt).toBe(at(60));
    expect(run.logEvents().filter((e) => e === 'timeout')).toHaveLength(6);
    expect(run.logEvents()).toContain('repeated');
    expect(run.logEvents().slice(-2)).toEqual(['exhausted', 'dropped']);
    expect(run.state.workflows.map((w) => w.status)).toEqual(Array(6).fill('timed_out'));
    expect(run.state.workflows[1]).toEqual({
      escalation: 0,
      account_user_id: 'bob',
      layer: 2,
      pass: 1,
      status: 'timed_out',
      started_at: at(5),
      deadline_at: at(15),
      closed_at: at(15),
    });
  });

  it('with repeat 0 drops at 30, as in the reference example', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    run.runUntil(at(120));
    expect(run.pages()).toEqual(['0 alice L1/P1', '5 bob L2/P1', '15 charlie L3/P1']);
    expect(run.effects.find((r) => r.effect.type === 'drop')!.at).toBe(at(30));
  });

  it('under HARK_TIME_SCALE=60 a 5-minute layer times out after 5 s; instants stay real', () => {
    const run = opsRun(60);
    run.start(team('ops', { layers: THREE_LAYERS }));
    expect(run.ofType('scheduleTimer')[0]!.timer.dueAt).toBe(T0 + 5_000);
    run.runUntil(T0 + 5_000);
    expect(run.pages()).toEqual(['0 alice L1/P1', `${5_000 / MINUTE} bob L2/P1`]);
  });
});

describe('acknowledge', () => {
  it('mid-layer stops every later page; the timer firing afterwards does nothing', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS, repeat: 1 }));
    run.runUntil(at(7));
    const pending = pendingTimers(run.state);
    expect(pending).toHaveLength(1);
    const epochBefore = run.state.epoch;

    const effects = run.send({ type: 'acknowledge', by: 'bob' });
    expect(run.state.status).toBe('acknowledged');
    expect(run.state.acknowledged_at).toBe(at(7));
    expect(run.state.epoch).toBe(epochBefore + 1);
    // Alice was paged (her layer timed out) and did not act: she is told; Bob, the actor, is not.
    expect(effects).toEqual([
      { type: 'log', event: 'acknowledged', message: 'Alert acknowledged by account user bob.', fields: { account_user_id: 'bob' } },
      { type: 'notifyStopped', action: 'acknowledged', account_user_ids: ['alice'], by: 'account user bob' },
    ]);
    expect(run.state.workflows.map((w) => `${w.account_user_id}:${w.status}`)).toEqual(['alice:timed_out', 'bob:acknowledged']);
    expect(pendingTimers(run.state)).toEqual([]);

    const stale = step(run.state, { type: 'timerFired', timer: pending[0]!, schedules: run.schedules }, at(15), onCallAt);
    expect(stale).toEqual({ ok: true, state: run.state, effects: [] });
    run.runUntil(at(200));
    expect(run.pages()).toEqual(['0 alice L1/P1', '5 bob L2/P1']);
  });

  it('by someone not paged closes every open workflow; acknowledging again is refused', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    run.send({ type: 'acknowledge', by: null });
    expect(run.state.workflows.map((w) => w.status)).toEqual(['closed']);
    expect(run.refusal({ type: 'acknowledge', by: 'alice' })).toBe(
      'status is acknowledged; only an open, dropped or suppressed alert can be acknowledged',
    );
  });

  it('tells each paged person who did not act, once; the actor and those who acknowledged or rejected are not told', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    run.runUntil(at(7));
    run.send({ type: 'reject', by: 'bob', schedules: run.schedules });
    const byIntegration = run.send({ type: 'resolve', by: null, via: 'integration int_1' });
    expect(byIntegration).toContainEqual({ type: 'notifyStopped', action: 'resolved', account_user_ids: ['alice', 'charlie'], by: 'integration int_1' });
    expect(byIntegration[0]).toEqual({ type: 'log', event: 'resolved', message: 'Alert resolved by integration int_1.', fields: {} });
    expect(peopleToTell(run.state, 'alice')).toEqual(['charlie']);
  });

  it('keeps the first acknowledged_at; resolve sets resolved_at and makes the alert terminal', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    run.now = at(2);
    run.send({ type: 'acknowledge', by: 'alice' });
    run.now = at(9);
    run.send({ type: 'resolve', by: 'alice' });
    expect(run.state).toMatchObject({ status: 'resolved', acknowledged_at: at(2), resolved_at: at(9), epoch: 2 });
    expect(run.refusal({ type: 'resolve', by: 'alice' })).toBe('status is resolved; only an open, dropped or acknowledged alert can be resolved');
    expect(run.refusal({ type: 'reject', by: 'alice', schedules: run.schedules })).toBe('status is resolved; only an open alert can be rejected');
  });

  it('a dropped alert can still be acknowledged, then resolved', () => {
    const run = new Run();
    run.schedules.sch_ops = [];
    run.start(team('ops', { layers: THREE_LAYERS }));
    expect(run.state.status).toBe('dropped');
    run.send({ type: 'acknowledge', by: 'alice' });
    expect(run.state.status).toBe('acknowledged');
    run.send({ type: 'resolve', by: null });
    expect(run.state.status).toBe('resolved');
    expect(run.ofType('page')).toEqual([]);
  });
});

describe('reject', () => {
  it('by everyone on the layer pages the next layer at once; the old timer is stale', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice', 'dave']), shift('sch_ops', 2, ['bob'])];
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 2) }));
    const firstTimer = pendingTimers(run.state)[0]!;
    run.now = at(1);
    run.reject('alice');
    expect(run.pages()).toEqual(['0 alice L1/P1', '0 dave L1/P1']);
    run.now = at(2);
    const effects = run.reject('dave');
    expect(effects.filter((e) => e.type === 'page')).toEqual([{ type: 'page', account_user_id: 'bob', escalation: 0, layer: 2, pass: 1, reason: 'rejected' }]);
    expect(pendingTimers(run.state)[0]!.dueAt).toBe(at(12));
    expect(run.state.workflows.map((w) => `${w.account_user_id}:${w.status}`)).toEqual(['alice:rejected', 'dave:rejected', 'bob:open']);

    // The layer-1 timer still arrives at minute 5: nothing happens.
    run.now = at(5);
    expect(run.fire(firstTimer)).toEqual([]);
    run.runUntil(at(60));
    expect(run.pages()).toEqual(['0 alice L1/P1', '0 dave L1/P1', '2 bob L2/P1']);
    expect(run.effects.find((r) => r.effect.type === 'drop')!.at).toBe(at(12));
  });

  it('by some of the layer waits for the timeout', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice', 'dave']), shift('sch_ops', 2, ['bob'])];
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 2) }));
    run.now = at(1);
    expect(run.reject('alice').filter((e) => e.type === 'page')).toEqual([]);
    run.runUntil(at(5));
    expect(run.pages()).toEqual(['0 alice L1/P1', '0 dave L1/P1', '5 bob L2/P1']);
    expect(run.state.workflows.map((w) => `${w.account_user_id}:${w.status}`)).toEqual(['alice:rejected', 'dave:timed_out', 'bob:open']);
  });

  it('needs an open workflow of the caller', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    expect(run.refusal({ type: 'reject', by: 'bob', schedules: run.schedules })).toBe(
      'account user bob has no open workflow on this alert; only a person being paged can reject it',
    );
    run.reject('alice');
    expect(openWorkflowsOf(run.state, 'alice')).toEqual([]);
    expect(run.refusal({ type: 'reject', by: 'alice', schedules: run.schedules })).toBe(
      'account user alice has no open workflow on this alert; only a person being paged can reject it',
    );
  });

  it('of the last layer of the last pass ends the escalation', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 1) }));
    run.reject('alice');
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'ops' }]);
  });
});

describe('nobody on call', () => {
  it('on layer 2 skips it, with a log entry saying why', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice']), shift('sch_ops', 3, ['charlie'])];
    run.start(team('ops', { layers: THREE_LAYERS }));
    run.runUntil(at(60));
    expect(run.pages()).toEqual(['0 alice L1/P1', '5 charlie L3/P1']);
    const skipped = run.ofType('log').filter((l) => l.event === 'skipped');
    expect(skipped).toEqual([
      {
        type: 'log',
        event: 'skipped',
        message: "Nobody is on call on layer 2 of team ops's schedule; the layer is skipped.",
        fields: { team_id: 'ops', layer: 2, pass: 1 },
      },
    ]);
    expect(run.effects.find((r) => r.effect.type === 'drop')!.at).toBe(at(20));
  });

  it('when the shift of layer 2 starts after the alert, layer 2 is paged when it is entered', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice']), shift('sch_ops', 2, ['bob'], at(3), at(600))];
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 2) }));
    run.runUntil(at(60));
    expect(run.pages()).toEqual(['0 alice L1/P1', '5 bob L2/P1']);
  });

  it('on every layer drops the alert at once, with the team’s drop notification', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice'], at(60), at(120))];
    const effects = run.start(team('ops', { layers: THREE_LAYERS, repeat: 3 }));
    expect(run.state.status).toBe('dropped');
    expect(effects.filter((e) => e.type === 'page' || e.type === 'scheduleTimer')).toEqual([]);
    expect(run.logEvents()).toEqual(['skipped', 'skipped', 'skipped', 'exhausted', 'dropped']);
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'ops' }]);
    expect(run.state.escalations[0]!.ended_reason).toBe("nobody is on call on any layer of team ops's schedule");
  });

  it('an alert with no destination at all is dropped', () => {
    const run = new Run();
    run.start();
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('drop')).toEqual([{ type: 'drop', reason: 'the alert has no destination to page' }]);
    expect(run.ofType('notifyDrop')).toEqual([]);
  });
});

describe('reassign', () => {
  it('after the last pass hands the alert to the reassign targets, who run their own escalations', () => {
    const run = opsRun();
    run.schedules.sch_dba = [shift('sch_dba', 1, ['erin'])];
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 2), repeat: 1, reassign_team_ids: ['dba'], reassign_account_user_ids: ['lead'] }));
    run.runUntil(at(30));
    expect(run.ofType('reassign')).toEqual([{ type: 'reassign', escalation: 0, team_ids: ['dba'], account_user_ids: ['lead'] }]);
    expect(run.state.status).toBe('open');
    expect(run.ofType('drop')).toEqual([]);

    // The service loads the targets and starts them.
    run.send({
      type: 'start',
      reassignedFrom: 0,
      destinations: [team('dba', { layers: [{ layer: 1, timeout: 10 }], reassign_team_ids: ['ops'] }), accountUserDestination('lead')],
      schedules: run.schedules,
    });
    expect(run.pages().slice(-2)).toEqual(['30 erin L1/P1', '30 lead L1/P1']);
    expect(run.ofType('page').slice(-2).map((p) => p.reason)).toEqual(['reassigned', 'reassigned']);
    expect(run.state.escalations.map((e) => e.phase)).toEqual(['reassigned', 'waiting', 'waiting']);

    // A duplicated follow-up changes nothing.
    expect(run.send({ type: 'start', reassignedFrom: 0, destinations: [accountUserDestination('lead')], schedules: run.schedules })).toEqual([]);

    // One hop: the reassigned team's own reassign list is not followed.
    run.runUntil(at(120));
    expect(run.ofType('reassign')).toHaveLength(1);
    expect(run.state.status).toBe('dropped');
    expect(run.effects.find((r) => r.effect.type === 'drop')!.at).toBe(at(60));
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'dba' }]);
  });

  it('to targets that no longer exist drops the alert', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 1), reassign_team_ids: ['gone'] }));
    run.runUntil(at(5));
    expect(run.state.status).toBe('open');
    run.send({ type: 'start', reassignedFrom: 0, destinations: [], schedules: run.schedules });
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'ops' }]);
  });

  it('acknowledged before the follow-up: the follow-up starts nothing', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 1), reassign_account_user_ids: ['lead'] }));
    run.runUntil(at(5));
    run.send({ type: 'acknowledge', by: 'alice' });
    expect(run.send({ type: 'start', reassignedFrom: 0, destinations: [accountUserDestination('lead')], schedules: run.schedules })).toEqual([]);
    expect(run.state.escalations.map((e) => e.phase)).toEqual(['stopped']);
  });
});

describe('direct account-user destinations', () => {
  it('page the person at once and time out after 30 minutes, dropping the alert', () => {
    const run = new Run();
    run.start(accountUserDestination('pat'));
    expect(run.pages()).toEqual(['0 pat L1/P1']);
    expect(pendingTimers(run.state)[0]!.dueAt).toBe(at(30));
    run.runUntil(at(120));
    expect(run.state.status).toBe('dropped');
    expect(run.state.workflows[0]).toMatchObject({ status: 'timed_out', closed_at: at(30) });
    expect(run.ofType('notifyDrop')).toEqual([]);
  });

  it('rejected by the person: the alert is dropped now', () => {
    const run = new Run();
    run.start(accountUserDestination('pat'));
    run.now = at(1);
    run.reject('pat');
    expect(run.state.status).toBe('dropped');
    expect(run.logEvents()).toEqual(['paged', 'rejected', 'exhausted', 'dropped']);
  });

  it('run beside a team: the alert stays open until both are exhausted', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS.slice(0, 1) }), accountUserDestination('pat', 20 * MINUTE));
    run.runUntil(at(10));
    expect(run.state.status).toBe('open');
    run.runUntil(at(20));
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('notifyDrop')).toEqual([{ type: 'notifyDrop', team_id: 'ops' }]);
  });
});

describe('timers', () => {
  it('a duplicated firing (at-least-once delivery) is harmless', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    const timer = pendingTimers(run.state)[0]!;
    run.now = at(5);
    expect(run.fire(timer).filter((e) => e.type === 'page')).toHaveLength(1);
    const after = run.state;
    run.now = at(6);
    expect(run.fire(timer)).toEqual([]);
    expect(run.state).toBe(after);
  });

  it('a firing before its due time does nothing', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    const timer = pendingTimers(run.state)[0]!;
    run.now = at(5) - 1;
    expect(run.fire(timer)).toEqual([]);
    run.now = at(5);
    expect(run.fire(timer).filter((e) => e.type === 'page')).toHaveLength(1);
  });

  it('a late firing (the sweeper) pages the next layer at the late instant', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    const timer = pendingTimers(run.state)[0]!;
    run.now = at(6);
    run.fire(timer);
    expect(pendingTimers(run.state)[0]!.dueAt).toBe(at(16));
  });

  it('a repeated start changes nothing', () => {
    const run = opsRun();
    run.start(team('ops', { layers: THREE_LAYERS }));
    expect(run.start(team('ops', { layers: THREE_LAYERS }))).toEqual([]);
    expect(run.state.escalations).toHaveLength(1);
  });
});

describe('the on-call lookup', () => {
  it('is the schedule engine’s onCallAt, asked at the instant the layer is entered', () => {
    const asked: number[] = [];
    const run = opsRun();
    const spy: typeof onCallAt = (events, nowMs) => {
      asked.push(nowMs);
      return onCallAt(events, nowMs);
    };
    const result = step(run.state, { type: 'start', destinations: [team('ops', { layers: THREE_LAYERS })], schedules: run.schedules }, at(0), spy);
    expect(result.ok && result.effects.filter((e) => e.type === 'page')).toHaveLength(1);
    expect(asked).toEqual([at(0)]);
  });

  it('fails loudly when the service forgot the schedule (a bug, not a silent drop)', () => {
    const run = new Run();
    expect(() => run.start(team('ops', { layers: THREE_LAYERS }))).toThrow('the events of schedule sch_ops were not passed to the escalation step');
  });

  it('pages each person once even when two events put them on the layer', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice', 'bob']), shift('sch_ops', 1, ['bob'])];
    run.start(team('ops', { layers: THREE_LAYERS }));
    expect(run.pages()).toEqual(['0 alice L1/P1', '0 bob L1/P1']);
  });
});

describe('delayed start (a router delay)', () => {
  const delayedRun = () => {
    const run = opsRun();
    run.send({ type: 'start', destinations: [], schedules: run.schedules, delayedStarts: 1 });
    return run;
  };
  const delayedStart = (run: Run, destinations = [team('ops', { layers: THREE_LAYERS })], epoch = run.state.epoch) =>
    run.send({ type: 'delayedStart', epoch, destinations, schedules: run.schedules });

  it('an alert whose only destination is delayed is open, not dropped, until the delayed start pages it', () => {
    const run = delayedRun();
    expect(run.state.status).toBe('open');
    expect(run.state.delayed_starts).toBe(1);
    expect(run.ofType('drop')).toEqual([]);
    run.now = at(10);
    delayedStart(run);
    expect(run.pages()).toEqual(['10 alice L1/P1']);
    expect(run.ofType('page').map((p) => p.reason)).toEqual(['delayed']);
    expect(run.state.delayed_starts).toBeUndefined();
    expect(run.ofType('scheduleTimer').map((t) => (t.timer.dueAt - T0) / MINUTE)).toEqual([15]);
    // A repeated firing changes nothing.
    expect(delayedStart(run)).toEqual([]);
    expect(run.pages()).toEqual(['10 alice L1/P1']);
  });

  it('keeps an open alert whose other escalations ended from dropping while a start is pending', () => {
    const run = opsRun();
    run.send({ type: 'start', destinations: [accountUserDestination('zed')], schedules: run.schedules, delayedStarts: 1 });
    run.runUntil(at(60));
    expect(run.state.status).toBe('open');
    delayedStart(run);
    expect(run.pages()).toEqual(['0 zed L1/P1', '60 alice L1/P1']);
  });

  it('does nothing once the alert was acknowledged (its epoch moved on)', () => {
    const run = delayedRun();
    const epoch = run.state.epoch;
    run.send({ type: 'acknowledge', by: 'alice' });
    const before = run.state;
    expect(delayedStart(run, undefined, epoch)).toEqual([]);
    expect(run.state).toBe(before);
    expect(run.pages()).toEqual([]);
  });

  it('a destination gone meanwhile starts nothing, and an alert with nothing else running drops', () => {
    const run = delayedRun();
    delayedStart(run, []);
    expect(run.state.status).toBe('dropped');
    expect(run.ofType('drop')).toEqual([{ type: 'drop', reason: 'the alert has no destination to page' }]);
  });
});
