// A fake clock and a driver for the escalation step: schedules built from real schedule events (answered by the
// schedule engine's own onCallAt), every scheduled timer kept so tests can fire it on time, late, or twice.
import { expect } from 'vitest';
import {
  newAlertEscalation,
  step,
  teamDestination,
  type AlertEscalation,
  type Destination,
  type Effect,
  type EscalationEvent,
  type EscalationTimer,
  type NotPaged,
  type ScheduleEventsById,
} from '#lib/escalation-engine/index.ts';
import { onCallAt, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

export const MINUTE = 60_000;
/** 2026-03-02T09:00:00Z: the fake clock's zero. */
export const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
export const at = (minutes: number): number => T0 + minutes * MINUTE;

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

let eventSeq = 0;
/** One event on `layer` of schedule `scheduleId` with these attendees on call together from `fromMs` to `toMs`. */
export function shift(scheduleId: string, layer: number, attendees: string[], fromMs = at(-24 * 60), toMs = at(7 * 24 * 60)): ScheduleEvent {
  return {
    id: `evt_${++eventSeq}`,
    layer,
    timeZone: 'Etc/UTC',
    start: iso(fromMs),
    end: iso(toMs),
    repeat: false,
    rotation: false,
    attendees,
    exceptions: [],
    scheduleIds: [scheduleId],
  };
}

interface PolicyShape {
  id?: string;
  layers: { layer: number; timeout: number; timeout_unit?: 'minutes' | 'hours' | 'days' }[];
  repeat?: number;
  reassign_team_ids?: string[];
  reassign_account_user_ids?: string[];
}

/** A team destination with its schedule id `sch_<team>` and a policy built from the shape. */
export function team(teamId: string, shape: PolicyShape): Destination {
  return teamDestination(
    { id: teamId, schedule_id: `sch_${teamId}` },
    {
      id: shape.id ?? `esc_${teamId}`,
      repeat: shape.repeat ?? 0,
      reassign_team_ids: shape.reassign_team_ids ?? [],
      reassign_account_user_ids: shape.reassign_account_user_ids ?? [],
      escalation_layers: shape.layers.map((l) => ({ layer: l.layer, timeout: l.timeout, timeout_unit: l.timeout_unit ?? 'minutes' })),
    },
  );
}

export interface Recorded {
  at: number;
  effect: Effect;
}

export class Run {
  state: AlertEscalation;
  now = T0;
  schedules: Record<string, ScheduleEvent[]> = {};
  /** Who the runner says must not be paged; passed with every event that may page. */
  notPaged: NotPaged = {};
  readonly effects: Recorded[] = [];
  /** Every timer ever scheduled, with whether the test harness has delivered it. */
  readonly timers: { timer: EscalationTimer; delivered: boolean }[] = [];

  constructor(timeScale = 1) {
    this.state = newAlertEscalation(timeScale);
  }

  /** Applies the event at the current fake time; fails the test on a refusal. Returns the step's effects. */
  send(event: EscalationEvent): Effect[] {
    const result = step(this.state, event, this.now, onCallAt);
    if (!result.ok) throw new Error(`refused: ${result.message}`);
    this.state = result.state;
    for (const effect of result.effects) {
      this.effects.push({ at: this.now, effect });
      if (effect.type === 'scheduleTimer') this.timers.push({ timer: effect.timer, delivered: false });
    }
    return [...result.effects];
  }

  /** The refusal message of the event (fails the test when it is accepted). */
  refusal(event: EscalationEvent): string {
    const result = step(this.state, event, this.now, onCallAt);
    expect(result.ok).toBe(false);
    return result.ok ? '' : result.message;
  }

  get schedulesById(): ScheduleEventsById {
    return this.schedules;
  }

  start(...destinations: Destination[]): Effect[] {
    return this.send({ type: 'start', destinations, schedules: this.schedules, notPaged: this.notPaged });
  }

  fire(timer: EscalationTimer): Effect[] {
    return this.send({ type: 'timerFired', timer, schedules: this.schedules, notPaged: this.notPaged });
  }

  reject(by: string): Effect[] {
    return this.send({ type: 'reject', by, schedules: this.schedules, notPaged: this.notPaged });
  }

  /** Moves the clock to `untilMs`, delivering every undelivered timer due by then, each exactly at its due time. */
  runUntil(untilMs: number): void {
    for (;;) {
      const next = this.timers.filter((t) => !t.delivered && t.timer.dueAt <= untilMs).sort((a, b) => a.timer.dueAt - b.timer.dueAt)[0];
      if (!next) break;
      next.delivered = true;
      this.now = Math.max(this.now, next.timer.dueAt);
      this.fire(next.timer);
    }
    this.now = Math.max(this.now, untilMs);
  }

  /** Pages so far as "minute person layer/pass". */
  pages(): string[] {
    return this.effects.flatMap(({ at: when, effect }) =>
      effect.type === 'page' ? [`${(when - T0) / MINUTE} ${effect.account_user_id} L${effect.layer}/P${effect.pass}`] : [],
    );
  }

  ofType<K extends Effect['type']>(type: K): Extract<Effect, { type: K }>[] {
    return this.effects.map((r) => r.effect).filter((e): e is Extract<Effect, { type: K }> => e.type === type);
  }

  logEvents(): string[] {
    return this.ofType('log').map((l) => l.event);
  }
}
