// A router template renders within a budget: block bodies and the text blocks build are counted, values are seen cut
// to 10,000 characters, and a render over budget falls back (docs/routing.md, "Templates").
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '#lib/routing-engine/templates.ts';
import { MAX_TEMPLATE_ITERATIONS, MAX_TEMPLATE_OUTPUT, TEXT_LENGTH } from '#lib/limits.ts';

const tags = Array.from({ length: 50 }, (_, i) => `t${i}`);
const data = { alert: { title: 'db down', tag_list: tags }, log: { data: {} } };

describe('renderTemplate budget', () => {
  it('stops four nested #each over 50 tags (6.25 million bodies) at the iteration budget, at once', () => {
    const template = '{{#each alert.tag_list}}{{#each ../alert.tag_list}}{{#each ../../alert.tag_list}}{{#each ../../../alert.tag_list}}x{{/each}}{{/each}}{{/each}}{{/each}}';
    // The work is counted where it is done (docs/testing.md, "Budgets, not timings"): each #each iteration reads one
    // item of the list, so the reads are the bodies run, whatever the clock says.
    let reads = 0;
    const counted = new Proxy(tags, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const data = { alert: { title: 'db down', tag_list: counted }, log: { data: {} } };
    expect(renderTemplate(template, data)).toEqual({ ok: false, reason: `it went over its budget: it runs more than ${MAX_TEMPLATE_ITERATIONS.toLocaleString('en-US')} block bodies` });
    expect(reads).toBeGreaterThan(MAX_TEMPLATE_ITERATIONS / 2);
    expect(reads).toBeLessThanOrEqual(2 * MAX_TEMPLATE_ITERATIONS);
  });

  it('renders within the budget: two nested #each over 50 tags are 2,550 bodies', () => {
    const rendered = renderTemplate('{{#each alert.tag_list}}{{#each ../alert.tag_list}}.{{/each}}{{/each}}', data);
    expect(rendered).toEqual({ ok: true, text: '.'.repeat(2_500) });
  });

  it('counts bodies of every block kind: if, unless, with and a block over a list field', () => {
    const list = (length: number) => ({ alert: { list: Array.from({ length }, () => 1) } });
    const half = MAX_TEMPLATE_ITERATIONS / 2;
    // Each item runs two bodies: the iteration and the inner block's branch.
    expect(renderTemplate('{{#alert.list}}{{#if this}}{{/if}}{{/alert.list}}', list(half + 1))).toMatchObject({ ok: false });
    expect(renderTemplate('{{#alert.list}}{{#if this}}{{/if}}{{/alert.list}}', list(half))).toMatchObject({ ok: true });
    expect(renderTemplate('{{#each alert.list}}{{#unless this}}{{else}}{{/unless}}{{/each}}', list(half + 1))).toMatchObject({ ok: false });
    expect(renderTemplate('{{#each alert.list}}{{#with this}}{{/with}}{{/each}}', list(half + 1))).toMatchObject({ ok: false });
    expect(renderTemplate('{{#each alert.list}}{{#with this}}{{/with}}{{/each}}', list(half))).toMatchObject({ ok: true });
  });

  it('stops blocks that build more text than the output budget', () => {
    const big = { log: { data: { big: 'x'.repeat(TEXT_LENGTH), list: Array.from({ length: 11 }, () => 1) } } };
    expect(renderTemplate('{{#each log.data.list}}{{../log.data.big}}{{/each}}', big)).toEqual({
      ok: false,
      reason: `it went over its budget: its blocks build more than ${MAX_TEMPLATE_OUTPUT.toLocaleString('en-US')} characters`,
    });
  });

  it('shows texts longer than 10,000 characters cut, so no value can make the output huge', () => {
    const parsed = JSON.parse(`{"log": {"data": {"big": "${'y'.repeat(200_000)}", "list": ["${'z'.repeat(20_000)}"], "__proto__": {"polluted": 1}}}}`);
    expect(renderTemplate('{{log.data.big.length}}', parsed)).toEqual({ ok: true, text: String(TEXT_LENGTH) });
    expect(renderTemplate('{{#each log.data.list}}{{this.length}}{{/each}}', parsed)).toEqual({ ok: true, text: String(TEXT_LENGTH) });
    expect(renderTemplate('{{log.data.big}}', parsed)).toEqual({ ok: true, text: 'y'.repeat(TEXT_LENGTH) });
    // The data itself is not changed, and a "__proto__" key of a payload stays a plain field of the copy.
    expect(parsed.log.data.big).toHaveLength(200_000);
    expect(renderTemplate('{{#with log.data}}{{polluted}}{{/with}}', parsed)).toEqual({ ok: true, text: '' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives each render its whole budget', () => {
    const template = `{{#each alert.list}}{{/each}}`;
    const list = { alert: { list: Array.from({ length: MAX_TEMPLATE_ITERATIONS }, () => 1) } };
    expect(renderTemplate(template, list)).toEqual({ ok: true, text: '' });
    expect(renderTemplate(template, list)).toEqual({ ok: true, text: '' });
  });
});
