// GET /schedules/:id/gaps: the times a layer of the schedule has nobody on call, from the one on-call function
// (docs/schedules.md, "Gaps").
import { gapsBetween } from '../schedule-engine/index.ts';
import { getSchedule } from '../schedules/service.ts';
import { absencesOf } from '../time-off/service.ts';
import { toEngine } from './model.ts';
import { eventsOfSchedule } from './store.ts';
import { isoInZone } from './time.ts';

export interface GapView {
  layer: number;
  start_time: string;
  end_time: string;
}

/** The schedule's gaps in [fromMs, toMs), cut to the window, sorted by layer then start; UTC times. */
export async function scheduleGaps(accountId: string, scheduleId: string, fromMs: number, toMs: number): Promise<GapView[]> {
  const schedule = await getSchedule(accountId, scheduleId);
  const [events, away] = await Promise.all([eventsOfSchedule(accountId, schedule.id), absencesOf(accountId)]);
  return gapsBetween(events.map(toEngine), fromMs, toMs, away).map((g) => ({
    layer: g.layer,
    start_time: isoInZone(g.startMs, 'Etc/UTC'),
    end_time: isoInZone(g.endMs, 'Etc/UTC'),
  }));
}
