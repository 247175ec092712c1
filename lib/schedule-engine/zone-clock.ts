import { IANAZone } from 'luxon';
import { ianaZoneOf } from '../time/zones.ts';
import { DAY_MS, MINUTE_MS, SECOND_MS } from './wall-clock.ts';

// Converts between instants and floating wall-clock times in one IANA zone, using luxon's zone data.
//
// luxon's DateTime.fromObject is not used for local → instant: for an ambiguous (fall-back) time it picks the
// offset of *today* (Settings.now), so the answer would change with the season the server runs in, and for a
// gap time it shifts by the gap length (02:30 → 03:30), which can put a shift's start after its own end.
//
// IANAZone.offset costs a few microseconds (an Intl call), so each zone's offsets are tabulated once per UTC
// month: sampled every 6 hours and bisected to the second where they change. No zone changes its offset twice
// within 6 hours, so nothing is missed; the table is kept for the life of the process.

const SAMPLE_MS = 6 * 60 * MINUTE_MS;

interface Segment {
  readonly fromMs: number;
  readonly toMs: number;
  readonly offsetMs: number;
}

export class ZoneClock {
  readonly zone: string;
  private readonly luxonZone: IANAZone;
  private readonly months = new Map<number, readonly Segment[]>();
  private last: Segment = { fromMs: 0, toMs: 0, offsetMs: 0 };

  constructor(zone: string) {
    const luxonZone = IANAZone.create(zone);
    if (!luxonZone.isValid) throw new RangeError(`Unknown time zone ${zone}`);
    this.zone = zone;
    this.luxonZone = luxonZone;
  }

  /** UTC offset in force at the instant, in milliseconds. */
  offsetAt(ms: number): number {
    const last = this.last;
    if (ms >= last.fromMs && ms < last.toMs) return last.offsetMs;
    const d = new Date(ms);
    const segments = this.monthSegments(d.getUTCFullYear(), d.getUTCMonth());
    let found = segments[0] as Segment;
    for (const s of segments) if (s.fromMs <= ms) found = s;
    this.last = found;
    return found.offsetMs;
  }

  /** The wall clock in this zone at the instant, as floating time. */
  toFloating(ms: number): number {
    return ms + this.offsetAt(ms);
  }

  /**
   * The first instant at which this zone's wall clock reads at least `floating`:
   * the only instant for a normal time, the earlier of two for a fall-back time, and the moment the clocks
   * jump for a time inside a spring-forward gap. Being monotone, it never reorders two wall-clock times,
   * so a shift can shrink across a gap but never end before it starts.
   */
  toInstant(floating: number): number {
    const before = this.offsetAt(floating - DAY_MS);
    const after = this.offsetAt(floating + DAY_MS);
    const viaBefore = floating - before;
    if (before === after) return viaBefore;
    const viaAfter = floating - after;
    const beforeFits = this.offsetAt(viaBefore) === before;
    const afterFits = this.offsetAt(viaAfter) === after;
    if (beforeFits && afterFits) return Math.min(viaBefore, viaAfter);
    if (beforeFits) return viaBefore;
    if (afterFits) return viaAfter;
    return this.changeBetween(Math.min(viaBefore, viaAfter), Math.max(viaBefore, viaAfter));
  }

  /** First second in (lo, hi] whose offset differs from lo's. */
  private changeBetween(lo: number, hi: number): number {
    const offsetLo = this.offsetAt(lo);
    while (hi - lo > SECOND_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / SECOND_MS) * SECOND_MS;
      if (this.offsetAt(mid) === offsetLo) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  private monthSegments(year: number, month: number): readonly Segment[] {
    const key = year * 12 + month;
    let segments = this.months.get(key);
    if (!segments) {
      segments = this.tabulate(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1));
      this.months.set(key, segments);
    }
    return segments;
  }

  private tabulate(startMs: number, endMs: number): Segment[] {
    const starts: Array<{ fromMs: number; offsetMs: number }> = [{ fromMs: startMs, offsetMs: this.rawOffset(startMs) }];
    let prevMs = startMs;
    let prevOffset = starts[0]!.offsetMs;
    while (prevMs < endMs) {
      const t = Math.min(prevMs + SAMPLE_MS, endMs);
      const offset = this.rawOffset(t);
      if (offset !== prevOffset) {
        const change = this.rawChangeBetween(prevMs, t, prevOffset);
        if (change < endMs) starts.push({ fromMs: change, offsetMs: offset });
      }
      prevMs = t;
      prevOffset = offset;
    }
    return starts.map((s, i) => ({ ...s, toMs: starts[i + 1]?.fromMs ?? endMs }));
  }

  private rawChangeBetween(lo: number, hi: number, offsetLo: number): number {
    while (hi - lo > SECOND_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / SECOND_MS) * SECOND_MS;
      if (this.rawOffset(mid) === offsetLo) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  private rawOffset(ms: number): number {
    return Math.round(this.luxonZone.offset(ms) * MINUTE_MS);
  }
}

const clocks = new Map<string, ZoneClock>();

/** One shared clock (and offset table) per IANA zone. */
export function zoneClock(zone: string): ZoneClock {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new ZoneClock(zone);
    clocks.set(zone, clock);
  }
  return clock;
}

const knownZones = new Map<string, string>();

/**
 * ianaZoneOf, remembering the names it accepts (a bounded set): it checks IANA ids by building an
 * Intl.DateTimeFormat, about 70 µs, which would dominate every request that reads fresh events.
 */
export function resolveZone(name: string): string | undefined {
  const known = knownZones.get(name);
  if (known) return known;
  const zone = ianaZoneOf(name);
  if (zone) knownZones.set(name, zone);
  return zone;
}
