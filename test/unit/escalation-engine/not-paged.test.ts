// Account users the runner says must not be paged (those who have not accepted the account's invitation,
// docs/people.md "People between accounts"): every way the engine pages skips them with a note, as if they were
// not on call, and pages the others.
import { describe, expect, it } from 'vitest';
import { accountUserDestination } from '#lib/escalation-engine/index.ts';
import { Run, at, shift, team } from './harness.ts';

const WHY = 'they have not accepted the invitation to this account';
const LAYERS = [
  { layer: 1, timeout: 5 },
  { layer: 2, timeout: 10 },
];

const skippedNotes = (run: Run) => run.ofType('log').filter((l) => l.event === 'skipped');

describe('a person who must not be paged', () => {
  it('on a layer with others is skipped with a note; the others are paged', () => {
    const run = new Run();
    run.notPaged = { mallory: WHY };
    run.schedules.sch_ops = [shift('sch_ops', 1, ['mallory', 'alice']), shift('sch_ops', 2, ['bob'])];
    run.start(team('ops', { layers: LAYERS }));
    expect(run.pages()).toEqual(['0 alice L1/P1']);
    expect(run.state.workflows.map((w) => w.account_user_id)).toEqual(['alice']);
    expect(skippedNotes(run)).toEqual([
      {
        type: 'log',
        event: 'skipped',
        message: `Account user mallory is not paged on layer 1 of team ops (pass 1): ${WHY}.`,
        fields: { team_id: 'ops', layer: 1, pass: 1, account_user_id: 'mallory' },
      },
    ]);
  });

  it('alone on a layer: the layer is skipped at once and the next one paged', () => {
    const run = new Run();
    run.notPaged = { mallory: WHY };
    run.schedules.sch_ops = [shift('sch_ops', 1, ['mallory']), shift('sch_ops', 2, ['bob'])];
    run.start(team('ops', { layers: LAYERS }));
    expect(run.pages()).toEqual(['0 bob L2/P1']);
    expect(skippedNotes(run).map((l) => l.message)).toEqual([
      `Account user mallory is not paged on layer 1 of team ops (pass 1): ${WHY}.`,
      "Nobody who can be paged is on call on layer 1 of team ops's schedule; the layer is skipped.",
    ]);
  });

  it('the only one on call on every layer: the escalation ends and the alert is dropped, saying why', () => {
    const run = new Run();
    run.notPaged = { mallory: WHY };
    run.schedules.sch_ops = [shift('sch_ops', 1, ['mallory']), shift('sch_ops', 2, ['mallory'])];
    run.start(team('ops', { layers: LAYERS }));
    expect(run.pages()).toEqual([]);
    expect(run.state.status).toBe('dropped');
    expect(run.state.escalations[0]!.ended_reason).toBe("nobody who can be paged is on call on any layer of team ops's schedule");
    expect(run.ofType('page')).toEqual([]);
  });

  it('is skipped when a timeout enters their layer, and when a reject does', () => {
    const timeout = new Run();
    timeout.notPaged = { mallory: WHY };
    timeout.schedules.sch_ops = [shift('sch_ops', 1, ['alice']), shift('sch_ops', 2, ['mallory', 'bob'])];
    timeout.start(team('ops', { layers: LAYERS }));
    timeout.runUntil(at(5));
    expect(timeout.pages()).toEqual(['0 alice L1/P1', '5 bob L2/P1']);
    expect(skippedNotes(timeout).map((l) => l.fields)).toEqual([{ team_id: 'ops', layer: 2, pass: 1, account_user_id: 'mallory' }]);

    const rejected = new Run();
    rejected.notPaged = { mallory: WHY };
    rejected.schedules.sch_ops = [shift('sch_ops', 1, ['alice']), shift('sch_ops', 2, ['mallory'])];
    rejected.start(team('ops', { layers: LAYERS }));
    rejected.reject('alice');
    expect(rejected.pages()).toEqual(['0 alice L1/P1']);
    expect(rejected.state.status).toBe('dropped');
  });

  it('paged directly: the direct page ends at once with the reason, nothing is paged', () => {
    const run = new Run();
    run.notPaged = { mallory: WHY };
    run.start(accountUserDestination('mallory'), accountUserDestination('alice'));
    expect(run.pages()).toEqual(['0 alice L1/P1']);
    expect(run.state.escalations.map((e) => [e.phase, e.ended_reason])).toEqual([
      ['exhausted', `account user mallory cannot be paged: ${WHY}`],
      ['waiting', null],
    ]);
    expect(skippedNotes(run).map((l) => l.message)).toEqual([`Account user mallory is not paged directly: ${WHY}.`]);
  });

  it('as a reassign target of the policy: skipped, and the alert drops when nobody else is left', () => {
    const run = new Run();
    run.notPaged = { mallory: WHY };
    run.schedules.sch_ops = [shift('sch_ops', 1, ['alice'])];
    run.start(team('ops', { layers: LAYERS.slice(0, 1), reassign_account_user_ids: ['mallory'] }));
    run.runUntil(at(5));
    const reassign = run.ofType('reassign');
    expect(reassign).toHaveLength(1);
    // The runner starts the targets with the same notPaged (lib/alerts/runner.ts).
    run.send({ type: 'start', destinations: [accountUserDestination('mallory')], schedules: {}, notPaged: run.notPaged, reassignedFrom: reassign[0]!.escalation });
    expect(run.pages()).toEqual(['0 alice L1/P1']);
    expect(run.state.status).toBe('dropped');
  });

  it('without notPaged everyone on call is paged as before', () => {
    const run = new Run();
    run.schedules.sch_ops = [shift('sch_ops', 1, ['mallory', 'alice'])];
    run.start(team('ops', { layers: LAYERS }));
    expect(run.pages()).toEqual(['0 mallory L1/P1', '0 alice L1/P1']);
    expect(skippedNotes(run)).toEqual([]);
  });
});
