import { describe, expect, it } from 'vitest';
import { normalizePhone } from '#lib/people/phones.ts';

describe('normalizePhone', () => {
  it.each([
    ['+1 415 555 2671', '+14155552671', 'US'],
    ['+1 (415) 555-2671', '+14155552671', 'US'],
    ['  +49 30 901820 ', '+4930901820', 'DE'],
    ['0049 170 1234567', '+491701234567', 'DE'],
    ['+33 6 12 34 56 78', '+33612345678', 'FR'],
    ['+44 20 7946 0958', '+442079460958', 'GB'],
    ['+1 268 464 1234', '+12684641234', 'AG'],
    ['+7 912 345-67-89', '+79123456789', 'RU'],
    ['+61.4.1234.5678', '+61412345678', 'AU'],
  ])('%s → %s in %s', (raw, phone, country) => {
    expect(normalizePhone(raw)).toEqual({ ok: true, phone, country });
  });

  it('derives the country within a shared calling code from the number, not the code (+1 → US, CA, AG)', () => {
    expect(normalizePhone('+1 604 555 0143')).toMatchObject({ ok: true, country: 'CA' });
    expect(normalizePhone('+1 212 555 0143')).toMatchObject({ ok: true, country: 'US' });
  });

  it('refuses national numbers: the country cannot be guessed', () => {
    expect(normalizePhone('415 555 2671')).toEqual({
      ok: false,
      problem: 'must be in international format, starting with + and the country code (e.g. +14155552671), got "415 555 2671"',
    });
  });

  it('refuses numbers outside the numbering plans (the max metadata checks ranges, not only lengths)', () => {
    expect(normalizePhone('+49 1234 5678901')).toEqual({ ok: false, problem: 'is not a valid phone number: "+49 1234 5678901"' });
    expect(normalizePhone('+1 800 123 4567')).toEqual({ ok: false, problem: 'is not a valid phone number: "+1 800 123 4567"' });
    expect(normalizePhone('+1 555 555 5555')).toMatchObject({ ok: false });
    expect(normalizePhone('+49 30 12')).toMatchObject({ ok: false });
    expect(normalizePhone('+999 1234')).toMatchObject({ ok: false });
  });

  it('refuses text, extensions and blanks', () => {
    expect(normalizePhone('call me')).toEqual({ ok: false, problem: 'is not a phone number: "call me"' });
    expect(normalizePhone('+49 170 1234567 ext. 5')).toEqual({ ok: false, problem: 'is not a phone number: "+49 170 1234567 ext. 5"' });
    expect(normalizePhone('+1 800 FLOWERS')).toMatchObject({ ok: false });
    expect(normalizePhone('   ')).toEqual({ ok: false, problem: "can't be blank" });
  });
});
