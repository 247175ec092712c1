// Refused requests (docs/ingest.md, "Refused requests"): one log per integration, reason and minute.
import { describe, expect, it } from 'vitest';
import { logIdsOf } from '#lib/ingest/source-log.ts';
import { refusalRequest, refusalWindowStart, type Refusal } from '#lib/ingest/refusals.ts';

const refusal: Refusal = { accountId: 'acct', integrationId: 'int1', reason: 'unreadable_mail', detail: 'Max allowed child nodes exceeded', method: 'SES', path: 'mailto:int_x@in.example' };
const at = Date.parse('2026-11-28T10:15:00.000Z');
const idAt = (r: Refusal, now: number) => logIdsOf(refusalRequest(r, now)).id;

describe('refusal logs', () => {
  it('name one log for the refusals of one integration and reason within a minute', () => {
    expect(refusalWindowStart(at + 59_999)).toBe(at);
    expect(idAt(refusal, at + 59_999)).toBe(idAt(refusal, at));
    expect(idAt(refusal, at + 60_000)).not.toBe(idAt(refusal, at));
    expect(idAt({ ...refusal, reason: 'bad_signature' }, at)).not.toBe(idAt(refusal, at));
    expect(idAt({ ...refusal, integrationId: 'int2' }, at)).not.toBe(idAt(refusal, at));
  });

  it('keep how the request came and no body', () => {
    expect(refusalRequest({ ...refusal, headers: { 'envelope-from': 'a@b.c' } }, at + 42_000)).toMatchObject({ method: 'SES', path: 'mailto:int_x@in.example', headers: { 'envelope-from': 'a@b.c' }, body: null, receivedAt: '2026-11-28T10:15:00.000Z' });
  });
});
