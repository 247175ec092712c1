import { describe, expect, it } from 'vitest';
import { occurrencesInWindow, onCallAt, type OnCallEntry, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString().replace(':00.000Z', 'Z');

function event(fields: Partial<ScheduleEvent>): ScheduleEvent {
  return {
    id: 'evt',
    layer: 1,
    timeZone: 'Etc/UTC',
    start: '2025-05-05T09:00:00',
    end: '2025-05-05T17:00:00',
    repeat: false,
    rotation: false,
    attendees: ['alice'],
    exceptions: [],
    scheduleIds: ['sch'],
    ...fields,
  };
}

/** "L<layer> start..end who (event)" per entry, instants in UTC. */
const rows = (entries: readonly OnCallEntry[]): string[] =>
  entries.map((e) => `L${e.layer} ${iso(e.startMs)}..${iso(e.endMs)} ${e.attendees.join('+')} (${e.eventId}${e.override ? ', override' : ''})`);

const window = (events: ScheduleEvent[], from: string, to: string) => rows(occurrencesInWindow(events, at(from), at(to)));

describe('several events on one schedule', () => {
  const daily = event({ id: 'daily', repeat: true, frequency: 1, frequencyUnit: 'daily', rotation: true, attendees: ['a', 'b'] });
  const oncall = event({ id: 'oncall', start: '2025-05-05T12:00:00', end: '2025-05-06T12:00:00', attendees: ['carol', 'dan'] });
  const backup = event({ id: 'backup', layer: 2, start: '2025-05-05T00:00:00', end: '2025-05-12T00:00:00', attendees: ['erin'] });

  it('non-override events overlapping on one layer are all on call', () => {
    expect(rows(onCallAt([daily, oncall], at('2025-05-05T13:00:00Z')))).toEqual([
      'L1 2025-05-05T09:00Z..2025-05-05T17:00Z a (daily)',
      'L1 2025-05-05T12:00Z..2025-05-06T12:00Z carol+dan (oncall)',
    ]);
  });

  it('sorts by layer, then start, then event id', () => {
    const twin = { ...oncall, id: 'another' };
    expect(window([backup, oncall, daily, twin], '2025-05-05T00:00:00Z', '2025-05-06T10:00:00Z')).toEqual([
      'L1 2025-05-05T09:00Z..2025-05-05T17:00Z a (daily)',
      'L1 2025-05-05T12:00Z..2025-05-06T12:00Z carol+dan (another)',
      'L1 2025-05-05T12:00Z..2025-05-06T12:00Z carol+dan (oncall)',
      'L1 2025-05-06T09:00Z..2025-05-06T17:00Z b (daily)',
      'L2 2025-05-05T00:00Z..2025-05-12T00:00Z erin (backup)',
    ]);
  });

  it('onCallAt includes an occurrence at its start instant and excludes it at its end instant', () => {
    expect(rows(onCallAt([daily], at('2025-05-05T09:00:00Z')))).toEqual(['L1 2025-05-05T09:00Z..2025-05-05T17:00Z a (daily)']);
    expect(onCallAt([daily], at('2025-05-05T17:00:00Z'))).toEqual([]);
  });

  it('answers an empty list when nobody is on call', () => {
    expect(onCallAt([daily, oncall], at('2025-05-05T05:00:00Z'))).toEqual([]);
    expect(onCallAt([], at('2025-05-05T05:00:00Z'))).toEqual([]);
  });
});

describe('override precedence', () => {
  const week = event({ id: 'week', start: '2025-05-04T00:00:00', end: '2025-05-11T00:00:00', attendees: ['alice'] });
  const override = event({ id: 'ovr', parentId: 'week', start: '2025-05-07T00:00:00', end: '2025-05-08T00:00:00', attendees: ['olga'] });

  it('clips the covered part of other events on its layer, splitting an occurrence in two', () => {
    expect(window([week, override], '2025-05-01T00:00:00Z', '2025-05-15T00:00:00Z')).toEqual([
      'L1 2025-05-04T00:00Z..2025-05-07T00:00Z alice (week)',
      'L1 2025-05-07T00:00Z..2025-05-08T00:00Z olga (ovr, override)',
      'L1 2025-05-08T00:00Z..2025-05-11T00:00Z alice (week)',
    ]);
    expect(rows(onCallAt([week, override], at('2025-05-07T12:00:00Z')))).toEqual(['L1 2025-05-07T00:00Z..2025-05-08T00:00Z olga (ovr, override)']);
  });

  it('keeps the whole occurrence in the entry for actions', () => {
    const [piece] = onCallAt([week, override], at('2025-05-09T00:00:00Z'));
    expect(piece && [iso(piece.startMs), iso(piece.occurrenceStartMs), iso(piece.occurrenceEndMs)]).toEqual([
      '2025-05-08T00:00Z',
      '2025-05-04T00:00Z',
      '2025-05-11T00:00Z',
    ]);
  });

  it('clips a piece reaching outside the window by overrides outside the window', () => {
    // window Mon 05–Tue 06 only; the override (Wed) still ends the piece that overlaps it
    expect(window([week, override], '2025-05-05T00:00:00Z', '2025-05-06T00:00:00Z')).toEqual(['L1 2025-05-04T00:00Z..2025-05-07T00:00Z alice (week)']);
  });

  it('does not touch other layers', () => {
    const layer2 = { ...week, id: 'l2', layer: 2, attendees: ['bob'] };
    expect(rows(onCallAt([week, layer2, override], at('2025-05-07T12:00:00Z')))).toEqual([
      'L1 2025-05-07T00:00Z..2025-05-08T00:00Z olga (ovr, override)',
      'L2 2025-05-04T00:00Z..2025-05-11T00:00Z bob (l2)',
    ]);
  });

  it('overrides do not clip each other: overlapping overrides are all on call', () => {
    const second = { ...override, id: 'ovr2', start: '2025-05-07T12:00:00', end: '2025-05-09T00:00:00', attendees: ['pat'] };
    expect(rows(onCallAt([week, override, second], at('2025-05-07T18:00:00Z')))).toEqual([
      'L1 2025-05-07T00:00Z..2025-05-08T00:00Z olga (ovr, override)',
      'L1 2025-05-07T12:00Z..2025-05-09T00:00Z pat (ovr2, override)',
    ]);
    expect(window([week, override, second], '2025-05-08T12:00:00Z', '2025-05-09T12:00:00Z')).toEqual([
      'L1 2025-05-07T12:00Z..2025-05-09T00:00Z pat (ovr2, override)',
      'L1 2025-05-09T00:00Z..2025-05-11T00:00Z alice (week)',
    ]);
  });

  it('clips every occurrence of a repeating event it covers, and a whole occurrence disappears', () => {
    const daily = event({ id: 'daily', repeat: true, frequency: 1, frequencyUnit: 'daily', start: '2025-05-05T09:00:00', end: '2025-05-05T17:00:00' });
    const long = { ...override, start: '2025-05-06T12:00:00', end: '2025-05-08T10:00:00' };
    expect(window([daily, long], '2025-05-06T00:00:00Z', '2025-05-09T00:00:00Z')).toEqual([
      'L1 2025-05-06T09:00Z..2025-05-06T12:00Z alice (daily)',
      'L1 2025-05-06T12:00Z..2025-05-08T10:00Z olga (ovr, override)',
      'L1 2025-05-08T10:00Z..2025-05-08T17:00Z alice (daily)',
    ]);
  });

  it('a remainder (a piece kept from an overridden occurrence) takes no precedence', () => {
    const carol = { ...week, id: 'carol', attendees: ['carol'] };
    const remainder = { ...override, id: 'rem', attendees: ['alice'], remainder: true };
    expect(rows(onCallAt([carol, remainder], at('2025-05-07T12:00:00Z')))).toEqual([
      'L1 2025-05-04T00:00Z..2025-05-11T00:00Z carol (carol)',
      'L1 2025-05-07T00:00Z..2025-05-08T00:00Z alice (rem)',
    ]);
  });
});
