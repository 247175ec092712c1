// The per-person notification cycle of a page, as pure steps over the matched rule's actions: `notify` sends on
// its channels and waits its `timeout` (none: go on at once), `repeat` reruns the actions above it up to `times`
// times, `ignore` ends the cycle without sending, and the end of the list ends it. Rules: docs/notifications.md,
// "The notification cycle".
import type { Channel, NotificationAction } from '../rule-engine/index.ts';

/** Where a cycle stands: the next action to run and how often each `repeat` (by its index) has rerun so far. */
export interface CyclePosition {
  readonly index: number;
  readonly repeats: Readonly<Record<string, number>>;
}

export const CYCLE_START: CyclePosition = { index: 0, repeats: {} };

/** What one step of the cycle does now, and when (after `delayMs` of real time) the next step runs, if any. */
export interface CycleStep {
  readonly channels: readonly Channel[];
  readonly next: { readonly position: CyclePosition; readonly delayMs: number } | null;
}

/**
 * Runs the actions from `position` until a notify with a timeout (the next step then waits it out), an `ignore`, or
 * the end. The channels of every notify run in this step go out now, each once. Repeats are bounded (at most
 * MAX_REPEAT_TIMES each), so a step always ends.
 */
export function cycleStep(actions: readonly NotificationAction[], position: CyclePosition = CYCLE_START): CycleStep {
  const channels: Channel[] = [];
  const repeats: Record<string, number> = { ...position.repeats };
  let index = position.index;
  while (index < actions.length) {
    const action = actions[index]!;
    if (action.type === 'ignore') return { channels, next: null };
    if (action.type === 'notify') {
      for (const channel of action.channels) if (!channels.includes(channel)) channels.push(channel);
      index += 1;
      if (action.timeoutMs !== undefined && action.timeoutMs > 0) {
        const position = { index, repeats };
        // Waiting only to send nothing (the end, an ignore, repeats already spent) would be an empty firing.
        return { channels, next: sendsMore(actions, position) ? { position, delayMs: action.timeoutMs } : null };
      }
      continue;
    }
    const done = repeats[index] ?? 0;
    if (done < action.times) {
      repeats[index] = done + 1;
      index = 0;
    } else index += 1;
  }
  return { channels, next: null };
}

/** Whether continuing from `position` sends anything, now or later. */
function sendsMore(actions: readonly NotificationAction[], position: CyclePosition): boolean {
  const step = cycleStep(actions, position);
  return step.channels.length > 0 || step.next !== null;
}

/** Whether a stored position is one `cycleStep` can continue from (timer payloads are data read back). */
export function isCyclePosition(value: unknown): value is CyclePosition {
  if (typeof value !== 'object' || value === null) return false;
  const { index, repeats } = value as { index?: unknown; repeats?: unknown };
  return Number.isInteger(index) && typeof repeats === 'object' && repeats !== null && Object.values(repeats).every((n) => Number.isInteger(n));
}
