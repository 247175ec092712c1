// RFC 5545 text for the calendar feeds, written by hand (a few lines, no runtime dependency): TEXT values escaped
// (section 3.3.11), lines folded at 75 octets without splitting a UTF-8 character (3.1), CRLF line ends, UTC times
// (3.3.5, form #2). Pure; docs/schedules.md, "Calendar feeds".

export interface FeedEvent {
  readonly uid: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly summary: string;
  readonly description?: string;
  /** DTSTAMP: kept stable across refreshes (the time the source last changed), so an unchanged feed is unchanged text. */
  readonly stampMs: number;
}

export interface FeedCalendar {
  /** X-WR-CALNAME, the name calendar apps show for the subscription. */
  readonly name: string;
  readonly events: readonly FeedEvent[];
}

/** Control characters other than tab (line breaks are escaped before): RFC 5545 allows none in TEXT. */
const isControl = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
};

/** A TEXT value: backslash, semicolon and comma escaped, line breaks as \n, other control characters dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .split('')
    .filter((c) => !isControl(c))
    .join('');
}

/** 20260302T090000Z: an instant in UTC, to the second. */
export function utcStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** One content line folded into lines of at most 75 octets, each continuation starting with a space. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    const limit = out.length === 0 ? 75 : 74;
    if (bytes + size > limit) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** The whole VCALENDAR document, CRLF-terminated lines. */
export function calendarText(calendar: FeedCalendar): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hark//On-call feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
  ];
  for (const e of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(e.uid)}`,
      `DTSTAMP:${utcStamp(e.stampMs)}`,
      `DTSTART:${utcStamp(e.startMs)}`,
      `DTEND:${utcStamp(e.endMs)}`,
      `SUMMARY:${escapeText(e.summary)}`,
      ...(e.description ? [`DESCRIPTION:${escapeText(e.description)}`] : []),
      'TRANSP:OPAQUE',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
