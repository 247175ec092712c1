// Saving a router checks its Handlebars templates: closed, valid, not too long, blocks not nested too deep
// (docs/rules.md, "Router actions"); rules stored before these checks still run (docs/routing.md, "Templates").
import { describe, expect, it } from 'vitest';
import { parseRouterRules, problemText } from '#lib/rule-engine/index.ts';
import { blockDepth, oneLineReason, templateProblem } from '#lib/rule-engine/template-check.ts';
import Handlebars from 'handlebars';
import { MAX_TEMPLATE_BLOCK_DEPTH, MAX_TEMPLATE_LENGTH } from '#lib/limits.ts';

const setval = (title: string) => `rules:\n- match: {always: true}\n  actions:\n  - {type: setval, handlebars: true, map: {title: ${JSON.stringify(title)}}}\n`;
const saveProblems = (yaml: string) => {
  const parsed = parseRouterRules(yaml, { onSave: true });
  return parsed.ok ? [] : parsed.problems.map(problemText);
};

const nested = (levels: number) => '{{#each alert.tag_list}}'.repeat(levels) + '{{this}}' + '{{/each}}'.repeat(levels);
const depthOf = (text: string) => blockDepth(Handlebars.parse(text));

describe('templateProblem', () => {
  it('accepts the templates of the docs', () => {
    for (const text of ['PROD {{alert.title}}', '{{#if log_parsed}}{{log.data.host}}{{/if}}', '{{#each alert.tag_list}}{{this}} {{/each}}', nested(MAX_TEMPLATE_BLOCK_DEPTH)]) {
      expect(templateProblem(text), text).toBeUndefined();
    }
  });

  it(`refuses blocks nested more than ${MAX_TEMPLATE_BLOCK_DEPTH} deep, naming the rule's line and the field`, () => {
    expect(saveProblems(setval(nested(4)))).toEqual([
      'line 4: title nests blocks 4 levels deep ({{#each}} inside {{#each}} …); at most 3 are allowed',
    ]);
  });

  it('counts an {{else if}} chain as one level, and both branches of a block', () => {
    expect(depthOf('{{#if a}}x{{else if b}}y{{else if c}}z{{else}}w{{/if}}')).toBe(1);
    expect(depthOf('{{#if a}}x{{else}}{{#each b}}{{#if c}}y{{/if}}{{/each}}{{/if}}')).toBe(3);
    expect(depthOf('{{#with a}}{{#if b}}x{{else if c}}{{#each d}}y{{/each}}{{/if}}{{/with}}')).toBe(3);
    expect(depthOf('plain {{text}}')).toBe(0);
  });

  it(`refuses a template longer than ${MAX_TEMPLATE_LENGTH} characters`, () => {
    expect(templateProblem('x'.repeat(MAX_TEMPLATE_LENGTH))).toBeUndefined();
    expect(saveProblems(setval('x'.repeat(MAX_TEMPLATE_LENGTH + 1)))).toEqual(['line 4: title is longer than 2,000 characters']);
  });

  it('refuses a template that does not parse, with the parser’s words on one line', () => {
    const [problem] = saveProblems(setval('{{#if alert.title}}open'));
    expect(problem).toMatch(/^line 4: title is not a valid template: Parse error on line 1: .*Expecting/);
    expect(problem).not.toContain('\n');
    expect(oneLineReason('x'.repeat(300))).toHaveLength(200);
    expect(oneLineReason(new Error('a\n  ---^\nb'))).toBe('a b');
  });

  it('keeps refusing an unclosed {{ even in stored rules, as before; tolerates the newer checks there', () => {
    expect(parseRouterRules(setval('{{alert.title')).ok).toBe(false);
    expect(parseRouterRules(setval(nested(5))).ok).toBe(true);
    expect(parseRouterRules(setval('{{#if x}}')).ok).toBe(true);
  });
});
