// The feed writer against RFC 5545 and a well-kept parser (ical.js): escaping, folding at 75 octets without
// splitting a character, CRLF, UTC times.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarText, escapeText, foldLine, utcStamp } from '#lib/calendar-feed/ical-text.ts';

describe('RFC 5545 text', () => {
  it('escapes backslash, semicolon, comma and line breaks, and drops other control characters', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\u0007g')).toBe('a\\\\b\\;c\\,d\\ne\\nfg');
  });

  it('writes instants as UTC date-times to the second', () => {
    expect(utcStamp(Date.UTC(2026, 2, 2, 9, 5, 7, 999))).toBe('20260302T090507Z');
  });

  it('folds lines at 75 octets, never inside a UTF-8 character, continuation lines starting with a space', () => {
    const line = `SUMMARY:${'é'.repeat(100)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(2);
    for (const [i, part] of parts.entries()) {
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
      if (i > 0) expect(part.startsWith(' ')).toBe(true);
    }
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(foldLine('short')).toBe('short');
  });

  it('makes a document ical.js reads back exactly', () => {
    const summary = 'On call: Pay, ments; "core" \\ team · layer 1 · Zoë Ångström '.repeat(3);
    const text = calendarText({
      name: 'On call: Payments',
      events: [
        { uid: 'abc@hark', startMs: Date.UTC(2026, 2, 2, 9), endMs: Date.UTC(2026, 2, 9, 9), summary, description: 'Covering for Ada,\nwho is away.', stampMs: Date.UTC(2026, 1, 1) },
        { uid: 'def@hark', startMs: Date.UTC(2026, 2, 9, 9), endMs: Date.UTC(2026, 2, 16, 9), summary: 'plain', stampMs: Date.UTC(2026, 1, 1) },
      ],
    });
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.split('\r\n').every((l) => Buffer.byteLength(l, 'utf8') <= 75)).toBe(true);
    expect(/[^\r]\n/.test(text)).toBe(false);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('On call: Payments');
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => [e.uid, e.summary, e.description, e.startDate.toJSDate().getTime(), e.endDate.toJSDate().getTime(), e.startDate.zone?.tzid])).toEqual([
      ['abc@hark', summary, 'Covering for Ada,\nwho is away.', Date.UTC(2026, 2, 2, 9), Date.UTC(2026, 2, 9, 9), 'UTC'],
      ['def@hark', 'plain', null, Date.UTC(2026, 2, 9, 9), Date.UTC(2026, 2, 16, 9), 'UTC'],
    ]);
  });
});
