// A heartbeat's intake step: a ping arms the timer at once, so a ping on time never races its own deadline through
// the queue (docs/monitors.md, "Heartbeat").
import { config } from '../../config.ts';
import { heartbeatOptions } from '../../monitor-readers/heartbeat.ts';
import type { IntakeContext, ReaderRequest } from '../../monitor-readers/types.ts';
import { armHeartbeat } from './state.ts';

export async function armOnPing(_request: ReaderRequest, context: IntakeContext): Promise<{ notes: string[] }> {
  const timing = heartbeatOptions.parse(context.options);
  const armed = await armHeartbeat({ ...context, timing, timeScale: config().timeScale });
  return { notes: [armed.armed ? `Heartbeat armed: the next ping is due by ${armed.nextDueAt}` : 'Heartbeat already armed by this or a later ping'] };
}
