// `$regex` of routers and notification rules runs on RE2 (the pure-JS `re2js` port), whose matching time is linear
// in the text: no pattern can stall the worker however it nests (docs/rules.md, "Regular expressions").
import { RE2JS } from 're2js';
import { MAX_REGEX_LENGTH } from '../limits.ts';

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  // RE2 always reads text as Unicode code points, as JavaScript does with `u`.
  u: 0,
};

/** `$options` are JavaScript's flags i, m, s, u, each at most once (a loop, not a backtracking regex, checks it). */
export function regexFlagsProblem(options: unknown): string | undefined {
  const valid = typeof options === 'string' && [...options].every((flag, i) => Object.hasOwn(FLAG_BITS, flag) && options.indexOf(flag) === i);
  return valid ? undefined : '$options must be regex flags from i, m, s, u';
}

/**
 * JavaScript syntax RE2 cannot run in linear time, named for the admin. Scanned here because RE2's own messages
 * do not say why, and `\k` would otherwise be read as a plain `k`.
 */
function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const next = pattern[i + 1];
    if (c === '\\') {
      if (!inClass && next !== undefined && next >= '1' && next <= '9') return `a backreference (\\${next})`;
      if (!inClass && next === 'k') return 'a named backreference (\\k<name>)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(' && next === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!')) return 'a lookahead ((?=…) or (?!…))';
      if (kind === '<=' || kind === '<!') return 'a lookbehind ((?<=…) or (?<!…))';
    }
  }
  return undefined;
}

function compile(pattern: string, flags: string): RE2JS {
  const bits = [...flags].reduce((all, flag) => all | (FLAG_BITS[flag] ?? 0), 0);
  return RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
}

const flagsOf = (options: unknown): string => (options !== undefined && regexFlagsProblem(options) === undefined ? (options as string) : '');

/** Why `pattern` (with `options`, the sibling `$options`) is not a JavaScript regular expression, or undefined. */
export function regexProblem(pattern: unknown, options: unknown): string | undefined {
  if (typeof pattern !== 'string') return '$regex must be a string';
  try {
    new RegExp(pattern, flagsOf(options));
    return undefined;
  } catch (error) {
    return `$regex is not a valid regular expression: ${(error as Error).message}`;
  }
}

/**
 * Why a JavaScript regular expression cannot be a rule's `$regex` on RE2, or undefined when it can: at most
 * MAX_REGEX_LENGTH characters, and syntax RE2 runs. Checked when rules are saved; a stored regex RE2 cannot run
 * matches nothing.
 */
export function linearRegexProblem(pattern: string, options: unknown): string | undefined {
  if (pattern.length > MAX_REGEX_LENGTH) return `$regex is longer than ${MAX_REGEX_LENGTH.toLocaleString('en-US')} characters`;
  const construct = unsupportedConstruct(pattern);
  if (construct) return `$regex uses ${construct}, which rules do not support: they run regexes in linear time (RE2)`;
  try {
    compile(pattern, flagsOf(options));
    return undefined;
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `$regex cannot run in linear time (RE2): ${reason}`;
  }
}

/** Compiled regexes of a warm process; the same rules match every alert. Bounded, the oldest dropped first. */
const compiled = new Map<string, RE2JS>();
const CACHED_REGEXES = 500;

/**
 * A test of `pattern` with `flags` (the `$options`, absent or a string of i, m, s, u) on RE2: `true` when the regex matches somewhere in the text (as RegExp#test).
 * Throws for flags or a pattern RE2 cannot use; validation refuses those before they are saved.
 */
export function linearRegexTest(pattern: string, flags: unknown): (text: string) => boolean {
  const problem = flags === undefined ? undefined : regexFlagsProblem(flags);
  if (problem) throw new Error(problem);
  const key = `${flags}/${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    regex = compile(pattern, (flags as string | undefined) ?? '');
    if (compiled.size >= CACHED_REGEXES) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, regex);
  }
  const found = regex;
  return (text) => found.test(text);
}
