const MS_PER_UNIT: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  sec: 1_000,
  secs: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

const DURATION_PATTERN = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i;

/**
 * Reads an ms-style duration ("5m", "30s", "2h", "1d", "1.5h", "10 minutes") or a plain number of
 * milliseconds (number or digits-only string, as the `ms` package reads them). Returns whole
 * milliseconds, or undefined when the value is not a non-negative duration.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, amount = '', unit = ''] = match;
  const perUnit = unit === '' ? 1 : MS_PER_UNIT[unit.toLowerCase()];
  if (perUnit === undefined) return undefined;
  const ms = Math.round(Number(amount) * perUnit);
  return Number.isSafeInteger(ms) ? ms : undefined;
}
