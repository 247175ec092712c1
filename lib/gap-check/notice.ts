// What the daily gap check tells, decided purely: which gaps are new since the last check, and the email text
// (docs/schedules.md, "Gaps").
import { DateTime } from 'luxon';
import type { Gap } from '../schedule-engine/index.ts';

/** A gap is known by its layer and the instant it starts: a gap that moves its start is a new one. */
export const gapKey = (gap: Gap): string => `${gap.layer}@${gap.startMs}`;

/**
 * The gaps to tell about at `nowMs`: those starting after the check instant (a gap clipped at the window's start
 * is going on already or has no known start) and not told before. `told` is the keys stored by the last check.
 */
export function gapsToTell(gaps: readonly Gap[], told: readonly string[], nowMs: number): Gap[] {
  const known = new Set(told);
  return gaps.filter((g) => g.startMs > nowMs && !known.has(gapKey(g)));
}

/** The keys the check keeps: the gaps that still exist and have started after the check (so a filled one is forgotten). */
export const keysToKeep = (gaps: readonly Gap[], nowMs: number): string[] => gaps.filter((g) => g.startMs > nowMs).map(gapKey);

const when = (ms: number): string => DateTime.fromMillis(ms, { zone: 'UTC' }).toFormat("ccc d LLL yyyy HH:mm 'UTC'");

function hours(ms: number): string {
  const h = ms / 3_600_000;
  const text = Number.isInteger(h) ? String(h) : h.toFixed(1);
  return `${text} hour${text === '1' ? '' : 's'}`;
}

/** The subject and body of the email to a team's admins. */
export function gapNoticeText(scheduleName: string, teamName: string, gaps: readonly Gap[]): { subject: string; body: string } {
  const lines = gaps.map((g) => `- layer ${g.layer}: nobody on call from ${when(g.startMs)} to ${when(g.endMs)} (${hours(g.endMs - g.startMs)})`);
  return {
    subject: `Nobody on call in ${scheduleName}: ${gaps.length === 1 ? 'a gap' : `${gaps.length} gaps`} in the next days`,
    body: [
      `The schedule ${scheduleName} of team ${teamName} has nobody on call at these times:`,
      ...lines,
      '',
      'Alerts to the team then skip that layer, or are dropped when no layer has anyone. Add an event or an override to fill the gap',
      '(GET /schedules/<id>/gaps lists them). You are told once per gap; turn these notices off with the team’s notify_schedule_gaps.',
    ].join('\n'),
  };
}
