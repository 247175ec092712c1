// window_events of any size: the whole window when it fits in one response (compressed when the client takes gzip),
// else pages in time order with a cursor; never a 422 for its size, and memory near one page (docs/events-api.md,
// "Large windows").
import { MAX_LAMBDA_RESPONSE_BYTES, MAX_WINDOW_ENTRIES, MAX_WINDOW_GZIP_ENTRIES, WINDOW_PAGE_ENTRIES } from '../limits.ts';
import { occurrencesInWindowAtMost, occurrencesPage } from '../schedule-engine/index.ts';
import { absencesOf } from '../time-off/service.ts';
import { toEngine } from './model.ts';
import { render, responseBytes, scheduleEvents, type OnCallView } from './views.ts';

export interface WindowAnswer {
  entries: OnCallView[];
  /** Present when more entries follow: the `cursor` of the next page. */
  nextMs?: number;
  /** Entries in time order (a page), rather than the whole window's layer order. */
  paged: boolean;
}

export interface WindowOptions {
  /** Entries per page; asking for it asks for pages. */
  limit?: number;
  /** Where the page starts (a previous answer's next link). */
  cursor?: number;
  /** The answer may be compressed, so the whole window may be larger than one plain response. */
  gzip: boolean;
}

export async function windowAnswer(accountId: string, scheduleId: string, fromMs: number, toMs: number, options: WindowOptions): Promise<WindowAnswer> {
  const [events, away] = await Promise.all([scheduleEvents(accountId, scheduleId), absencesOf(accountId)]);
  const engine = events.map(toEngine);
  if (options.limit === undefined && options.cursor === undefined) {
    const whole = occurrencesInWindowAtMost(engine, fromMs, toMs, options.gzip ? MAX_WINDOW_GZIP_ENTRIES : MAX_WINDOW_ENTRIES, away);
    if (whole) {
      const entries = render(whole, events);
      if (options.gzip || responseBytes(entries) <= MAX_LAMBDA_RESPONSE_BYTES) return { entries, paged: false };
    }
  }
  let limit = Math.min(options.limit ?? WINDOW_PAGE_ENTRIES, MAX_WINDOW_ENTRIES);
  for (;;) {
    const page = occurrencesPage(engine, fromMs, toMs, options.cursor ?? fromMs, limit, away);
    const entries = render(page.entries, events);
    // Entries with many attendees are larger: a page that would not fit plainly is halved.
    if (options.gzip || limit === 1 || responseBytes(entries) <= MAX_LAMBDA_RESPONSE_BYTES) {
      return { entries, ...(page.nextMs !== undefined ? { nextMs: page.nextMs } : {}), paged: true };
    }
    limit = Math.max(1, Math.floor(limit / 2));
  }
}
