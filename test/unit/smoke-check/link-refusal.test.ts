// The smoke check's line when the page's Acknowledge link does not act (lib/smoke-check/client.ts): what the page
// said, and where the link led when that is not the deployment being checked.
import { describe, expect, it } from 'vitest';
import { htmlPage } from '#lib/channel-adapters/action-page.ts';
import { linkRefusal } from '#lib/smoke-check/client.ts';

const page = (status: number, title: string, text: string) => {
  const body = htmlPage(status, { title, text }).body;
  return { status, body: undefined, text: body };
};

describe('linkRefusal', () => {
  it("says the status and the page's heading and text", () => {
    const line = linkRefusal(page(410, 'Link expired', 'This link has expired.'), 'https://hark.example/actions/abc.def', 'https://hark.example/');
    expect(line).toBe('POST of the Acknowledge link answered 410: Link expired (This link has expired.)');
  });

  it('names where the link led when it is another origin than the deployment checked', () => {
    const line = linkRefusal(page(403, 'Not allowed', "You are no longer a member of this account (or have not joined it yet), so you can't act."), 'http://127.0.0.1:38643/actions/abc.def', 'http://127.0.0.1:41063/');
    expect(line).toContain("answered 403: Not allowed (You are no longer a member of this account (or have not joined it yet), so you can't act.)");
    expect(line).toContain('the link leads to http://127.0.0.1:38643, not to the deployment checked (http://127.0.0.1:41063)');
  });

  it('keeps to the status for a body that is no page', () => {
    expect(linkRefusal({ status: 502, body: undefined, text: 'Bad gateway' }, 'https://a.example/actions/x', 'https://a.example')).toBe('POST of the Acknowledge link answered 502');
  });
});
