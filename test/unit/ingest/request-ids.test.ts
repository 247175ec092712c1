import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { alertIdOfRequest, generatedThirdpartyId } from '#lib/ingest/request-ids.ts';

describe('ids derived from a request', () => {
  const at = Date.parse('2026-03-01T10:00:00.123Z');

  it('the alert id is a ULID of the acceptance time, the same for every delivery, different per request', () => {
    const id = alertIdOfRequest('req-1', at);
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBe(at);
    expect(alertIdOfRequest('req-1', at)).toBe(id);
    expect(alertIdOfRequest('req-2', at)).not.toBe(id);
    expect(alertIdOfRequest('req-2', at).slice(0, 10)).toBe(id.slice(0, 10));
  });

  it('a generated thirdparty_id is UUID-shaped and stable per request', () => {
    const id = generatedThirdpartyId('req-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(generatedThirdpartyId('req-1')).toBe(id);
    expect(generatedThirdpartyId('req-2')).not.toBe(id);
  });

  it('each event of a request has its own ids; the first event keeps the ids a request always had', () => {
    // Fixed values, as derived before requests could carry several events: a message queued then is applied with the same ids.
    expect(alertIdOfRequest('req-1', at, 0)).toBe('01KJMDEBBVJ7B06WTP04A6CQFN');
    expect(generatedThirdpartyId('req-1', 0)).toBe('24e80370-5dea-4daf-a3db-dba8fbbdbaec');
    const alertIds = [0, 1, 2].map((i) => alertIdOfRequest('req-1', at, i));
    const thirdpartyIds = [0, 1, 2].map((i) => generatedThirdpartyId('req-1', i));
    expect(new Set(alertIds).size).toBe(3);
    expect(new Set(thirdpartyIds).size).toBe(3);
    expect(alertIds.map((id) => decodeTime(id))).toEqual([at, at, at]);
    expect([0, 1, 2].map((i) => alertIdOfRequest('req-1', at, i))).toEqual(alertIds);
  });
});
