// Handlebars templates of setval and incident actions (`handlebars: true`), rendered over the match data.
// Safety: docs/routing.md, "Templates".
import Handlebars from 'handlebars';
import { TEXT_LENGTH } from '../limits.ts';

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

export type Rendered = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Renders one template over `data`. Output is plain text (no HTML escaping: alert fields are not HTML), cut to
 * TEXT_LENGTH characters. Only the built-in helpers exist; a template calling anything else, or one that does
 * not compile, is reported with the reason and not used.
 */
export function renderTemplate(template: string, data: unknown): Rendered {
  try {
    const render = templates.compile(template, { noEscape: true, knownHelpersOnly: true, strict: false });
    const text = render(data);
    return { ok: true, text: text.length > TEXT_LENGTH ? text.slice(0, TEXT_LENGTH) : text };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Parse errors span lines (the text, a ----^ pointer, what was expected): keep the words, on one line.
    const reason = message.split('\n').filter((line) => !/^-*\^$/.test(line.trim())).join(' ').replace(/\s+/g, ' ').trim();
    return { ok: false, reason: reason.length > 200 ? `${reason.slice(0, 199)}…` : reason };
  }
}
