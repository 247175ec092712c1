// The one reading of an alert's external identity (`thirdparty_id`), shared by the webhook's `Id` and POST /alerts, so
// both store and index the same text (docs/alerts.md, "Other sources"). No imports: the webhook Lambda loads it too.

/** A non-blank string (trimmed), or a finite number as its decimal text; undefined for anything else (no identity). */
export function thirdpartyIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
