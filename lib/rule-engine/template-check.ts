// What saving a router checks of its Handlebars templates (`handlebars: true`): closed, parseable, not too long,
// blocks not nested too deep. Rendering and its run-time budget: lib/routing-engine/templates.ts (docs/routing.md, "Templates").
import Handlebars from 'handlebars';
import { MAX_TEMPLATE_BLOCK_DEPTH, MAX_TEMPLATE_LENGTH } from '../limits.ts';

/** Handlebars' parse errors span lines (the text, a ----^ pointer, what was expected): the words, on one line. */
export function oneLineReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.split('\n').filter((line) => !/^-*\^$/.test(line.trim())).join(' ').replace(/\s+/g, ' ').trim();
  return reason.length > 200 ? `${reason.slice(0, 199)}…` : reason;
}

type Node = hbs.AST.Node & { body?: hbs.AST.Statement[]; program?: hbs.AST.Program; inverse?: hbs.AST.Program; chained?: boolean };

/**
 * How deep blocks nest: `{{#each a}}{{#each b}}…{{/each}}{{/each}}` is 2. An `{{else if}}` chain continues its
 * block, so it adds no level.
 */
export function blockDepth(node: Node | undefined): number {
  if (!node) return 0;
  if (node.type === 'Program') {
    return Math.max(0, ...(node.body ?? []).map((statement) => blockDepth(statement as Node)));
  }
  if (node.program === undefined) return 0;
  const inverse = node.inverse as Node | undefined;
  const inverseDepth = inverse?.chained ? blockDepth(inverse) - 1 : blockDepth(inverse);
  return 1 + Math.max(blockDepth(node.program as Node), inverseDepth);
}

/** A `{{` whose `}}` never comes, found without parsing; the parser's message for it says less. */
export function hasUnclosedMustache(text: string): boolean {
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) return false;
    const close = text.indexOf('}}', open + 2);
    if (close < 0) return true;
    from = close + 2;
  }
}

/**
 * What is wrong with a closed template, worded to follow its field name (`title is …`), or undefined when it may be
 * saved: at most MAX_TEMPLATE_LENGTH characters, valid Handlebars, blocks nested at most MAX_TEMPLATE_BLOCK_DEPTH deep.
 */
export function templateProblem(text: string): string | undefined {
  if (text.length > MAX_TEMPLATE_LENGTH) return `is longer than ${MAX_TEMPLATE_LENGTH.toLocaleString('en-US')} characters`;
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(text);
  } catch (error) {
    return `is not a valid template: ${oneLineReason(error)}`;
  }
  const depth = blockDepth(program as Node);
  if (depth > MAX_TEMPLATE_BLOCK_DEPTH) {
    return `nests blocks ${depth} levels deep ({{#each}} inside {{#each}} …); at most ${MAX_TEMPLATE_BLOCK_DEPTH} are allowed`;
  }
  return undefined;
}
