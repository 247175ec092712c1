// Time off in the on-call answer: who takes a regular occurrence's time while someone is away. Pure; the callers
// pass the absences in (docs/schedules.md, "Time off").
import type { Absence, Occurrence, ScheduleEvent } from './types.ts';

interface Interval {
  readonly startMs: number;
  readonly endMs: number;
}

/** A piece of a regular occurrence with who is on call during it once time off is taken into account. */
export interface AwayPiece extends Interval {
  readonly attendees: readonly string[];
  /** The absent on-duty attendee of a rotation this piece's attendee covers for. */
  readonly coveringFor?: string;
}

/** Absences grouped by account user, each list sorted by start. */
export type AwayIndex = ReadonlyMap<string, readonly Interval[]>;

export function awayIndex(away: readonly Absence[]): AwayIndex {
  const byPerson = new Map<string, Interval[]>();
  for (const a of away) {
    if (!(a.endMs > a.startMs)) continue;
    const list = byPerson.get(a.accountUserId) ?? [];
    list.push({ startMs: a.startMs, endMs: a.endMs });
    byPerson.set(a.accountUserId, list);
  }
  for (const list of byPerson.values()) list.sort((a, b) => a.startMs - b.startMs);
  return byPerson;
}

const isAway = (index: AwayIndex, person: string, segment: Interval): boolean =>
  (index.get(person) ?? []).some((a) => a.startMs <= segment.startMs && a.endMs >= segment.endMs);

/**
 * Who is on call during `piece` (a regular occurrence `o` of `event`, or the part an override leaves of it).
 * A rotation's on-duty attendee who is away is covered, for the overlap only, by the next attendee in the
 * rotation's order who is not away; the rotation's later turns do not move. In a non-rotation event an absent
 * attendee is left out for the overlap. A part where everyone is away is left out (a gap). Adjacent parts with
 * the same people are one piece.
 */
export function piecesWithTimeOff(event: ScheduleEvent, o: Occurrence, piece: Interval, index: AwayIndex): AwayPiece[] {
  const rotation = event.rotation && event.attendees.length > 0 && o.attendees.length === 1;
  const people = rotation ? event.attendees : o.attendees;
  const edges = new Set<number>([piece.startMs, piece.endMs]);
  for (const person of people) {
    for (const a of index.get(person) ?? []) {
      if (a.startMs > piece.startMs && a.startMs < piece.endMs) edges.add(a.startMs);
      if (a.endMs > piece.startMs && a.endMs < piece.endMs) edges.add(a.endMs);
    }
  }
  if (edges.size === 2 && !people.some((p) => isAway(index, p, piece))) return [{ ...piece, attendees: o.attendees }];
  const cuts = [...edges].sort((a, b) => a - b);
  const out: AwayPiece[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const segment = { startMs: cuts[i] as number, endMs: cuts[i + 1] as number };
    const next = rotation ? rotationCover(event.attendees, o, segment, index) : plainPresent(o.attendees, segment, index);
    if (!next) continue;
    const last = out.at(-1);
    if (last && last.endMs === segment.startMs && last.coveringFor === next.coveringFor && sameList(last.attendees, next.attendees)) {
      out[out.length - 1] = { ...last, endMs: segment.endMs };
    } else out.push({ ...segment, ...next });
  }
  return out;
}

type Who = { attendees: readonly string[]; coveringFor?: string };

function rotationCover(order: readonly string[], o: Occurrence, segment: Interval, index: AwayIndex): Who | undefined {
  const onDuty = o.attendees[0] as string;
  if (!isAway(index, onDuty, segment)) return { attendees: o.attendees };
  for (let k = 1; k < order.length; k++) {
    const candidate = order[(o.index + k) % order.length] as string;
    if (candidate !== onDuty && !isAway(index, candidate, segment)) return { attendees: [candidate], coveringFor: onDuty };
  }
  return undefined;
}

function plainPresent(attendees: readonly string[], segment: Interval, index: AwayIndex): Who | undefined {
  const present = attendees.filter((p) => !isAway(index, p, segment));
  return present.length > 0 || attendees.length === 0 ? { attendees: present } : undefined;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
