// Handlebars templates of setval and incident actions (`handlebars: true`), rendered over the match data.
// Safety and budget: docs/routing.md, "Templates".
import Handlebars from 'handlebars';
import { oneLineReason } from '../rule-engine/template-check.ts';
import { MAX_TEMPLATE_ITERATIONS, MAX_TEMPLATE_OUTPUT, TEXT_LENGTH } from '../limits.ts';

/**
 * An environment of our own, so nothing registered elsewhere in the process reaches templates. Handlebars'
 * defaults stay as they are: prototype properties and methods (`constructor`, `__proto__`, …) render nothing.
 * The `log` helper is removed (it writes to the console) and the logger raised above its highest level
 * (3, error): it would print to the console on denied prototype access, which a template author controls. That
 * logger is shared by every Handlebars environment; this module is the only one that uses Handlebars.
 */
const templates = Handlebars.create();
templates.unregisterHelper('log');
templates.logger.level = 4;

/** What the render under way may still spend; renders are synchronous, so one at a time. */
interface Budget {
  bodies: number;
  characters: number;
}
let budget: Budget | undefined;

class TemplateBudgetError extends Error {}

type BlockBody = Handlebars.TemplateDelegate & { counted?: true };

/** A block body that spends one body and the characters it renders from the budget of the render under way. */
function counted(body: BlockBody | undefined): BlockBody | undefined {
  if (!body || body.counted) return body;
  const run = ((context: unknown, options?: Handlebars.RuntimeOptions) => {
    if (budget && --budget.bodies < 0) throw new TemplateBudgetError(`it runs more than ${MAX_TEMPLATE_ITERATIONS.toLocaleString('en-US')} block bodies`);
    const text = body(context, options);
    if (budget && (budget.characters -= text.length) < 0) throw new TemplateBudgetError(`its blocks build more than ${MAX_TEMPLATE_OUTPUT.toLocaleString('en-US')} characters`);
    return text;
  }) as BlockBody;
  return Object.assign(run, body, { counted: true as const });
}

// Every block runs its body through one of these helpers (`{{#alert.tag_list}}` through blockHelperMissing, which
// calls each), so wrapping them counts every iteration and branch, however the blocks nest.
for (const name of ['each', 'if', 'unless', 'with', 'blockHelperMissing']) {
  const helper = templates.helpers[name] as (...args: unknown[]) => unknown;
  templates.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    const options = args.at(-1) as Handlebars.HelperOptions;
    args[args.length - 1] = { ...options, fn: counted(options.fn), inverse: counted(options.inverse) };
    return helper.apply(this, args);
  });
}

/** The data as templates see it: texts longer than TEXT_LENGTH cut there (the output is cut there anyway). */
function withTextsCut(value: unknown): unknown {
  if (typeof value === 'string') return value.length > TEXT_LENGTH ? value.slice(0, TEXT_LENGTH) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map(withTextsCut);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const entries = Object.entries(value).map(([key, item]) => [key, withTextsCut(item)] as const);
  const record = value as Record<string, unknown>;
  // fromEntries defines own keys, so a "__proto__" key of a payload stays a plain field.
  return entries.some(([key, item]) => item !== record[key]) ? Object.fromEntries(entries) : value;
}

export type Rendered = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Renders one template over `data`. Output is plain text (no HTML escaping: alert fields are not HTML), cut to
 * TEXT_LENGTH characters. Only the built-in helpers exist; a template calling anything else, one that does not
 * compile, or one that goes over its budget (MAX_TEMPLATE_ITERATIONS block bodies, MAX_TEMPLATE_OUTPUT characters
 * built in blocks) is reported with the reason and not used.
 */
export function renderTemplate(template: string, data: unknown): Rendered {
  budget = { bodies: MAX_TEMPLATE_ITERATIONS, characters: MAX_TEMPLATE_OUTPUT };
  try {
    const render = templates.compile(template, { noEscape: true, knownHelpersOnly: true, strict: false });
    const text = render(withTextsCut(data));
    return { ok: true, text: text.length > TEXT_LENGTH ? text.slice(0, TEXT_LENGTH) : text };
  } catch (error) {
    if (error instanceof TemplateBudgetError) return { ok: false, reason: `it went over its budget: ${error.message}` };
    return { ok: false, reason: oneLineReason(error) };
  } finally {
    budget = undefined;
  }
}
