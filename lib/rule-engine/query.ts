import type { Path, Report } from './problems.ts';
import {
  DEFAULT_TIME_FORMAT,
  OWN_PARAMS,
  SPECIAL_FUNCTIONS,
  isFailure,
  nowFormatParam,
  timeFormatParam,
  timeParam,
  zoneParam,
} from './special-functions.ts';
import { linearRegexProblem, regexFlagsProblem, regexProblem } from './regex.ts';
import { isMapping } from './values.ts';
import { MAX_QUERY_DEPTH } from '../limits.ts';

/** sift operators a field condition may use; `$where` runs code, so it is refused. */
const FIELD_OPERATORS: ReadonlySet<string> = new Set([
  '$in', '$nin', '$exists', '$gte', '$gt', '$lte', '$lt', '$eq', '$ne', '$mod', '$all',
  '$size', '$type', '$regex', '$options', '$elemMatch', '$not',
]);
const LOGICAL_OPERATORS: ReadonlySet<string> = new Set(['$and', '$or', '$nor']);
/** sift's own aliases; anything else makes sift throw at match time. */
const TYPE_ALIASES = ['number', 'string', 'bool', 'array', 'null', 'timestamp'];

/** What a group of operators tests: a document field, or the value a special function computes. */
type Subject = 'field' | '$day' | '$now';

interface Walk {
  readonly report: Report;
  readonly depth: number;
}

const deeper = (walk: Walk): Walk => ({ ...walk, depth: walk.depth + 1 });
const isOperator = (key: string) => key.startsWith('$');
const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  isMapping(value) && Object.keys(value).some(isOperator);

/** Validates a query object (`match`, and each element of `$and`/`$or`/`$nor`), reporting every problem. */
export function validateQuery(query: unknown, path: Path, report: Report): void {
  checkQuery(query, path, { report, depth: 0 });
}

function checkQuery(query: unknown, path: Path, walk: Walk): void {
  if (walk.depth > MAX_QUERY_DEPTH) return walk.report(path, `the query is nested more than ${MAX_QUERY_DEPTH} levels deep`);
  if (!isMapping(query)) return walk.report(path, 'a query must be a mapping of conditions');
  for (const [key, value] of Object.entries(query)) {
    const at = [...path, key];
    if (isOperator(key)) checkQueryOperator(key, value, at, walk);
    else checkFieldCondition(key, value, at, walk);
  }
}

function checkQueryOperator(key: string, value: unknown, at: Path, walk: Walk): void {
  if (key === '$where') return walk.report(at, '$where is not allowed');
  if (LOGICAL_OPERATORS.has(key)) return checkQueryList(key, value, at, deeper(walk));
  if (SPECIAL_FUNCTIONS.has(key)) return checkSpecialFunction(key, value, at, deeper(walk));
  if (key === '$not') {
    if (!isMapping(value) || Object.keys(value).length === 0) return walk.report(at, '$not must hold a query');
    return checkQuery(value, at, deeper(walk));
  }
  if (FIELD_OPERATORS.has(key)) return walk.report(at, `${key} must be used on a field, e.g. {alert.title: {${key}: ...}}`);
  walk.report(at, `unknown operator "${key}"`);
}

function checkQueryList(key: string, value: unknown, at: Path, walk: Walk): void {
  if (!Array.isArray(value) || value.length === 0) return walk.report(at, `${key} must be a non-empty list of queries`);
  value.forEach((item, i) => checkQuery(item, [...at, i], walk));
}

function checkFieldCondition(key: string, value: unknown, at: Path, walk: Walk): void {
  if (key.split('.').some((part) => part === '')) walk.report(at, `field path "${key}" has an empty part`);
  // A mapping without operators is a plain value compared for equality, whatever it holds.
  if (isOperatorObject(value)) checkOperators(value, at, 'field', walk);
}

function checkOperators(operators: Record<string, unknown>, at: Path, subject: Subject, walk: Walk): void {
  if (walk.depth > MAX_QUERY_DEPTH) return walk.report(at, `the query is nested more than ${MAX_QUERY_DEPTH} levels deep`);
  for (const [op, value] of Object.entries(operators)) {
    const opAt = [...at, op];
    if (!isOperator(op)) {
      walk.report(opAt, `"${op}" is not an operator; a condition holds either operators or a plain value, not both`);
    } else {
      checkOperator(op, value, operators, opAt, subject, walk);
    }
  }
}

function checkOperator(
  op: string,
  value: unknown,
  siblings: Record<string, unknown>,
  at: Path,
  subject: Subject,
  walk: Walk,
): void {
  const { report } = walk;
  const where = subject === 'field' ? 'on a field' : `inside ${subject}`;
  if (op === '$where') return report(at, '$where is not allowed');
  if (LOGICAL_OPERATORS.has(op) || SPECIAL_FUNCTIONS.has(op)) return report(at, `${op} cannot be used ${where}`);
  if (!FIELD_OPERATORS.has(op)) return report(at, `unknown operator "${op}"`);
  const problem = operandProblem(op, value, siblings, at, subject, walk);
  if (problem) report(at, problem);
  if (subject !== 'field') checkComputedValues(op, value, at, subject, report);
}

/** Checks one operator's operand; nested conditions are walked, simple shapes return a message. */
function operandProblem(
  op: string,
  value: unknown,
  siblings: Record<string, unknown>,
  at: Path,
  subject: Subject,
  walk: Walk,
): string | undefined {
  switch (op) {
    case '$in':
    case '$nin':
      if (!Array.isArray(value)) return `${op} must be a list`;
      return value.some(isOperatorObject) ? `${op} values cannot hold operators` : undefined;
    case '$all':
      if (!Array.isArray(value) || value.length === 0) return '$all must be a non-empty list';
      value.forEach((item, i) => {
        if (isOperatorObject(item)) checkOperators(item, [...at, i], subject, deeper(walk));
      });
      return undefined;
    case '$exists':
      return typeof value === 'boolean' ? undefined : '$exists must be true or false';
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return typeof value === 'number' || typeof value === 'string' ? undefined : `${op} must be a number or a string`;
    case '$eq':
    case '$ne':
      return undefined;
    case '$mod':
      return isModOperand(value) ? undefined : '$mod must be [divisor, remainder] with a non-zero divisor';
    case '$size':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : '$size must be a whole number of 0 or more';
    case '$type':
      return typeof value === 'string' && TYPE_ALIASES.includes(value) ? undefined : `$type must be one of ${TYPE_ALIASES.join(', ')}`;
    case '$regex': {
      const problem = regexProblem(value, siblings.$options);
      const linear = problem === undefined ? linearRegexProblem(value as string, siblings.$options) : undefined;
      if (linear) walk.report(at, linear, true);
      return problem;
    }
    case '$options':
      return optionsProblem(value, siblings);
    case '$elemMatch':
      return checkElemMatch(value, at, deeper(walk));
    case '$not':
      if (!isOperatorObject(value)) return '$not must hold operators, e.g. {$not: {$regex: test}}';
      checkOperators(value, at, subject, deeper(walk));
      return undefined;
  }
  return undefined;
}

const isModOperand = (value: unknown) =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
  value[0] !== 0;

// Mongo's flags that JavaScript shares; `g` and `y` make a RegExp stateful, `x` does not exist in JS.
function optionsProblem(options: unknown, siblings: Record<string, unknown>): string | undefined {
  if (!('$regex' in siblings)) return '$options needs a $regex next to it';
  return regexFlagsProblem(options);
}

/** `$elemMatch` holds either operators on each element (`{$gt: 5}`) or a query on element fields. */
function checkElemMatch(value: unknown, at: Path, walk: Walk): undefined | string {
  if (!isMapping(value) || Object.keys(value).length === 0) return '$elemMatch must hold a query';
  const keys = Object.keys(value);
  const onElementValue = keys.every(isOperator) && !keys.some((k) => LOGICAL_OPERATORS.has(k) || SPECIAL_FUNCTIONS.has(k));
  if (onElementValue) checkOperators(value, at, 'field', walk);
  else checkQuery(value, at, walk);
  return undefined;
}

/** `$day` yields a number 1–7 and `$now` a string: a value of the other kind never matches. */
function checkComputedValues(op: string, value: unknown, at: Path, subject: Subject, report: Report): void {
  if (!['$in', '$nin', '$eq', '$ne'].includes(op)) return;
  const values: unknown[] = Array.isArray(value) ? value : [value];
  values.forEach((v, i) => {
    const vAt = Array.isArray(value) ? [...at, i] : at;
    if (subject === '$day' && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 7)) {
      report(vAt, `$day compares ISO weekdays 1 (Monday) to 7 (Sunday); got ${JSON.stringify(v)}`);
    }
    if (subject === '$now' && typeof v !== 'string') {
      report(vAt, `$now produces text; put ${JSON.stringify(v)} in quotes`);
    }
  });
}

function checkSpecialFunction(name: string, params: unknown, at: Path, walk: Walk): void {
  const { report } = walk;
  if (!isMapping(params)) return report(at, `${name} must be a mapping of parameters`);
  const zone = zoneParam(params.timezone);
  if (isFailure(zone)) report([...at, 'timezone'], zone.error);
  if (name === '$timeBetween') return checkTimeBetween(params, at, report);
  if (name === '$now') {
    const format = nowFormatParam(params.format);
    if (isFailure(format)) report([...at, 'format'], format.error);
  }
  checkFunctionOperators(name, params, at, walk);
}

function checkFunctionOperators(name: string, params: Record<string, unknown>, at: Path, walk: Walk): void {
  const own = OWN_PARAMS[name] ?? [];
  const operators: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (own.includes(key)) continue;
    if (isOperator(key)) operators[key] = value;
    else walk.report([...at, key], `unknown ${name} parameter "${key}"`);
  }
  if (Object.keys(operators).length === 0) {
    const example = name === '$day' ? '$in: [1, 2, 3, 4, 5]' : '$in: ["12-24", "12-25"]';
    return walk.report(at, `${name} needs an operator to test its value, e.g. ${example}`);
  }
  checkOperators(operators, at, name === '$day' ? '$day' : '$now', walk);
}

function checkTimeBetween(params: Record<string, unknown>, at: Path, report: Report): void {
  for (const key of Object.keys(params)) {
    if (!(OWN_PARAMS.$timeBetween ?? []).includes(key)) report([...at, key], `unknown $timeBetween parameter "${key}"`);
  }
  const format = timeFormatParam(params.timeformat);
  if (isFailure(format)) return report([...at, 'timeformat'], format.error);
  const formatText = typeof params.timeformat === 'string' ? params.timeformat : DEFAULT_TIME_FORMAT;
  const start = timeParam('starttime', params.starttime, format, formatText);
  const end = timeParam('endtime', params.endtime, format, formatText);
  if (isFailure(start)) report(params.starttime === undefined ? at : [...at, 'starttime'], start.error);
  if (isFailure(end)) report(params.endtime === undefined ? at : [...at, 'endtime'], end.error);
  if (start === end) report(at, 'starttime and endtime are the same; leave out $timeBetween to match all day');
}
