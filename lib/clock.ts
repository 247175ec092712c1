/** The one source of "now" for services (tests move it with vitest's fake timers). */
export const nowMs = (): number => Date.now();
export const nowIso = (): string => new Date(nowMs()).toISOString();
