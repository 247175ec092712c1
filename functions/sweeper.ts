// Sweeper Lambda, run every minute by EventBridge Scheduler (every 5 s by the local runtime): fires the timers
// whose wake-up is late or lost, through the same owner handlers as the wake-up consumer (functions/timers.ts).
import { OWNER_HANDLERS, timerFunctions } from './timers.ts';

export const { sweepHandler: handler } = timerFunctions(OWNER_HANDLERS);
