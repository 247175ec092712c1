// Shared by the monitor readers' unit tests: a recorded payload as the request a reader gets, and reader options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReaderOptions, ReaderRequest } from '#lib/monitor-readers/types.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'monitors');

/** The raw text of test/fixtures/monitors/<type>/<file>. */
export const fixtureText = (type: string, file: string): string => readFileSync(join(FIXTURES, type, file), 'utf8');

/** A recorded payload as the request the reader gets (headers lower-cased). */
export function fixtureRequest(type: string, file: string, headers: Record<string, string> = {}): ReaderRequest {
  const rawBody = fixtureText(type, file);
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, query: {}, body: JSON.parse(rawBody) as unknown, rawBody };
}

/** A request of any body, as JSON. */
export function jsonRequest(body: unknown, headers: Record<string, string> = {}): ReaderRequest {
  const rawBody = JSON.stringify(body);
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, query: {}, body, rawBody };
}

export function readerOptions(overrides: Partial<ReaderOptions> = {}): ReaderOptions {
  return {
    options: {},
    wrapperKey: null,
    captureAdditionalData: false,
    defaultUrgency: 'high',
    generateId: (index) => `generated-${index}`,
    ...overrides,
  };
}
