// Whether a maintenance window silences an integration now: pure, for the worker to call with the
// account's windows and the clock's now (docs/integrations.md, "Maintenance windows": active iff start ≤ now < end).

export interface WindowTimes {
  /** ISO 8601 with an offset, as stored and shown. */
  readonly start_datetime: string;
  readonly end_datetime: string;
}

export interface WindowOfIntegrations extends WindowTimes {
  readonly integration_ids: readonly string[];
}

export function isWindowActive(window: WindowTimes, nowMs: number): boolean {
  const start = Date.parse(window.start_datetime);
  const end = Date.parse(window.end_datetime);
  if (!Number.isFinite(start) || !Number.isFinite(end)) return false;
  return start <= nowMs && nowMs < end;
}

/**
 * The active window attached to the integration (canonical id), if any. When several overlap, the one that
 * ends last is returned, so a log line can say until when the integration's requests are ignored.
 */
export function activeWindowFor<W extends WindowOfIntegrations>(integrationId: string, windows: readonly W[], nowMs: number): W | undefined {
  let found: W | undefined;
  for (const window of windows) {
    if (!window.integration_ids.includes(integrationId) || !isWindowActive(window, nowMs)) continue;
    if (!found || Date.parse(window.end_datetime) > Date.parse(found.end_datetime)) found = window;
  }
  return found;
}
