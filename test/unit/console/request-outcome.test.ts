// The integrations page's "what Hark made of it" column (lib/console/pages/integrations-page.ts), refused logs included.
import { describe, expect, it } from 'vitest';
import { requestOutcome } from '#lib/console/pages/integrations-page.ts';

const details = (notes: string[], refused?: { reason: string; count: number }) => ({
  message: 'POST /integration/int_x',
  sublogs: notes.map((message) => ({ message, alert_id: null })),
  ...(refused ? { refused } : {}),
});

describe('requestOutcome', () => {
  it("joins the log's notes, or says the request waits", () => {
    expect(requestOutcome(details(['Created alert alt_1 (open)', 'Paged 1']))).toBe('Created alert alt_1 (open) · Paged 1');
    expect(requestOutcome(details([]))).toBe('accepted, not processed yet');
  });

  it('says how many refused requests of its minute a refused log stands for', () => {
    expect(requestOutcome(details(['Refused: Missing or invalid service-token header'], { reason: 'invalid_token', count: 50 }))).toBe(
      'Refused: Missing or invalid service-token header · 50 such requests in that minute',
    );
    expect(requestOutcome(details(['Refused: Missing or invalid service-token header'], { reason: 'invalid_token', count: 1 }))).toBe('Refused: Missing or invalid service-token header');
  });
});
