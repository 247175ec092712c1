/** The one source of "now" for services, so tests and the local runtime can move time deliberately. */
let offsetMs = 0;

export const nowMs = (): number => Date.now() + offsetMs;
export const nowIso = (): string => new Date(nowMs()).toISOString();

/** Local runtime and end-to-end tests only: shift the clock seen by services. */
export function setClockOffset(ms: number): void {
  offsetMs = ms;
}
