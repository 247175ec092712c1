import { loadLocated } from './located-yaml.ts';
import { sortedProblems, type Path, type Problem, type Report } from './problems.ts';
import { validateQuery } from './query.ts';
import { expandedSize, isMapping } from './values.ts';
import { MAX_RULES_TEXT_LENGTH, MAX_RULES_VALUES } from '../limits.ts';

/** A `match` query: MongoDB-style conditions over `{always, alert, log, log_parsed}`. */
export type Query = Readonly<Record<string, unknown>>;

export type ParseResult<D> = { ok: true; document: D } | { ok: false; problems: Problem[] };

export interface ParseOptions {
  /** A write: every check applies. Without it (stored rules being evaluated) the save-only checks are skipped. */
  readonly onSave?: boolean;
}

/** Reads one action whose `type` is known; problems go to `report`, the value is dropped if there are any. */
export type ActionReader<A> = (action: Record<string, unknown>, path: Path, report: Report) => A;

export interface BaseRule<A> {
  readonly match: Query;
  readonly actions: readonly A[];
}

export interface RuleGrammar<A, R> {
  /** Rule keys beyond match and actions. */
  readonly extraRuleKeys: readonly string[];
  readonly actions: Readonly<Record<string, ActionReader<A>>>;
  finishRule(rule: Record<string, unknown>, base: BaseRule<A>, path: Path, report: Report): R;
}


/**
 * Parses and validates a rules document, reporting every problem with its line. A blank document (only
 * whitespace or comments) is valid and has no rules, so the default receiver or channels apply.
 */
export function parseRulesDocument<A, R>(text: string, grammar: RuleGrammar<A, R>, options: ParseOptions = {}): ParseResult<{ rules: R[] }> {
  if (text.length > MAX_RULES_TEXT_LENGTH) {
    return fail([{ line: 1, message: `the document is longer than ${MAX_RULES_TEXT_LENGTH} characters` }]);
  }
  const loaded = loadLocated(text);
  if (!loaded.ok) return fail([loaded.problem]);
  const { value, lineOf } = loaded.yaml;
  if (value === undefined || value === null) return { ok: true, document: { rules: [] } };
  const sizeProblem = documentSizeProblem(value);
  if (sizeProblem) return fail([{ line: 1, message: sizeProblem }]);

  const problems: Problem[] = [];
  const report: Report = (path, message, onSaveOnly) => {
    if (!onSaveOnly || options.onSave) problems.push({ line: lineOf(path), message });
  };
  const rules = readRoot(value, grammar, report);
  return problems.length > 0 ? fail(problems) : { ok: true, document: { rules } };
}

const fail = (problems: Problem[]): { ok: false; problems: Problem[] } => ({ ok: false, problems: sortedProblems(problems) });

function documentSizeProblem(value: unknown): string | undefined {
  const size = expandedSize(value, MAX_RULES_VALUES);
  if (size === 'cycle') return 'an alias refers to the mapping or list that contains it';
  if (size > MAX_RULES_VALUES) return `the document holds more than ${MAX_RULES_VALUES} values (aliases expanded)`;
  return undefined;
}

function readRoot<A, R>(root: unknown, grammar: RuleGrammar<A, R>, report: Report): R[] {
  if (!isMapping(root)) {
    report([], 'the document must be a mapping with a rules key');
    return [];
  }
  reportUnknownKeys(root, ['rules'], [], report, 'at the top level; the document holds only rules');
  const rules = root.rules;
  if (!Object.hasOwn(root, 'rules')) report([], 'rules is required');
  else if (!Array.isArray(rules)) report(['rules'], 'rules must be a list');
  else if (rules.length === 0) report(['rules'], 'rules must have at least one rule');
  if (!Array.isArray(rules)) return [];
  return rules.map((rule, i) => readRule(rule, ['rules', i], grammar, report));
}

function readRule<A, R>(rule: unknown, path: Path, grammar: RuleGrammar<A, R>, report: Report): R {
  if (!isMapping(rule)) {
    report(path, 'each rule must be a mapping with match and actions');
    return grammar.finishRule({}, { match: {}, actions: [] }, path, () => {});
  }
  reportUnknownKeys(rule, ['match', 'actions', ...grammar.extraRuleKeys], path, report, 'in rule');
  const base: BaseRule<A> = {
    match: readMatch(rule, path, report),
    actions: readActions(rule, path, grammar, report),
  };
  return grammar.finishRule(rule, base, path, report);
}

function readMatch(rule: Record<string, unknown>, path: Path, report: Report): Query {
  const match = rule.match;
  if (!Object.hasOwn(rule, 'match')) report(path, 'match is required');
  else if (!isMapping(match)) report([...path, 'match'], 'match must be a query mapping');
  else if (Object.keys(match).length === 0) {
    report([...path, 'match'], 'match must not be empty; use {always: true} to match everything');
  } else validateQuery(match, [...path, 'match'], report);
  return isMapping(match) ? match : {};
}

function readActions<A, R>(rule: Record<string, unknown>, path: Path, grammar: RuleGrammar<A, R>, report: Report): A[] {
  const actions = rule.actions;
  const at = [...path, 'actions'];
  if (!Object.hasOwn(rule, 'actions')) report(path, 'actions is required');
  else if (!Array.isArray(actions)) report(at, 'actions must be a list');
  else if (actions.length === 0) report(at, 'actions must have at least one action');
  if (!Array.isArray(actions)) return [];
  return actions.flatMap((action, i) => readAction(action, [...at, i], grammar, report));
}

function readAction<A, R>(action: unknown, path: Path, grammar: RuleGrammar<A, R>, report: Report): A[] {
  if (!isMapping(action)) {
    report(path, 'each action must be a mapping with a type');
    return [];
  }
  const type = action.type;
  if (type === undefined) {
    report(path, 'action type is required');
    return [];
  }
  const reader = typeof type === 'string' && Object.hasOwn(grammar.actions, type) ? grammar.actions[type] : undefined;
  if (!reader) {
    report([...path, 'type'], `unknown action type ${JSON.stringify(type)}`);
    return [];
  }
  return [reader(action, path, report)];
}

/** Typos such as `reciever` would otherwise be ignored silently, so every key must be known. */
export function reportUnknownKeys(
  mapping: Record<string, unknown>,
  allowed: readonly string[],
  path: Path,
  report: Report,
  where: string,
): void {
  for (const key of Object.keys(mapping)) {
    if (!allowed.includes(key)) report([...path, key], `unknown key "${key}" ${where}`);
  }
}
