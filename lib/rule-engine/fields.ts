import { parseDuration } from './duration.ts';
import type { Path, Report } from './problems.ts';
import { hasUnclosedMustache, templateProblem } from './template-check.ts';

/**
 * Readers for action parameters. Each reports what is wrong and still returns a value of the right type,
 * because a document with any problem is refused as a whole and its values are never used.
 */

export function readIdList(
  value: unknown,
  key: string,
  pattern: RegExp,
  expected: string,
  path: Path,
  report: Report,
): string[] {
  const at = [...path, key];
  if (value === undefined) {
    report(path, `${key} is required`);
    return [];
  }
  // One id may be written without a list, as in `receiver: tem_ops`.
  const ids: unknown[] = Array.isArray(value) ? value : [value];
  if (ids.length === 0) report(at, `${key} must name at least one id`);
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || !pattern.test(id)) {
      report(Array.isArray(value) ? [...at, i] : at, `${key} must be ${expected}; got ${JSON.stringify(id)}`);
    }
  });
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}

export function readStringList(value: unknown, key: string, path: Path, report: Report): string[] {
  const at = [...path, key];
  if (value === undefined) {
    report(path, `${key} is required`);
    return [];
  }
  const items: unknown[] = Array.isArray(value) ? value : [value];
  if (items.length === 0) report(at, `${key} must not be empty`);
  items.forEach((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') {
      report(Array.isArray(value) ? [...at, i] : at, `${key} must hold non-empty strings; got ${JSON.stringify(item)}`);
    }
  });
  return items.filter((item): item is string => typeof item === 'string');
}

export interface DurationRule {
  readonly required: boolean;
  /** Whether 0 is refused, for windows that must last some time. */
  readonly positive: boolean;
}

export function readDuration(
  map: Record<string, unknown>,
  key: string,
  rule: DurationRule,
  path: Path,
  report: Report,
): number | undefined {
  const value = map[key];
  if (value === undefined) {
    if (rule.required) report(path, `${key} is required`);
    return undefined;
  }
  const ms = parseDuration(value);
  if (ms === undefined || (rule.positive && ms === 0)) {
    const least = rule.positive ? 'more than 0' : '0 or more';
    report([...path, key], `${key} must be a duration of ${least} such as "30s", "5m", "2h", "1d" or milliseconds; got ${JSON.stringify(value)}`);
  }
  return ms;
}

export function readBoolean(map: Record<string, unknown>, key: string, path: Path, report: Report): boolean {
  const value = map[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') report([...path, key], `${key} must be true or false`);
  return value === true;
}

export function readOptionalString(map: Record<string, unknown>, key: string, path: Path, report: Report): string | undefined {
  const value = map[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    report([...path, key], `${key} must be a string`);
    return undefined;
  }
  return value;
}

/**
 * A template's problems caught on save rather than at render time: an unclosed `{{` (always), and its length, syntax
 * and nesting (on save only: a stored template over them still renders within its budget, lib/routing-engine/templates.ts).
 */
export function reportTemplateProblems(text: string | undefined, key: string, path: Path, report: Report): void {
  if (text === undefined) return;
  if (hasUnclosedMustache(text)) return report([...path, key], `${key} has a {{ without a closing }}`);
  const problem = templateProblem(text);
  if (problem) report([...path, key], `${key} ${problem}`, true);
}
