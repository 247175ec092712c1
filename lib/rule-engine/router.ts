import {
  parseRulesDocument,
  reportUnknownKeys,
  type ActionReader,
  type BaseRule,
  type ParseOptions,
  type ParseResult,
  type RuleGrammar,
} from './document.ts';
import { firstMatchingRule, type Evaluation } from './evaluate.ts';
import {
  readBoolean,
  readDuration,
  readIdList,
  readOptionalString,
  readStringList,
  reportTemplateProblems,
} from './fields.ts';
import type { Path, Report } from './problems.ts';
import { isMapping } from './values.ts';

export const INCIDENT_SEVERITIES = ['SEV-1', 'SEV-2', 'SEV-3', 'SEV-4', 'SEV-5', 'SEV-UNKNOWN'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
export const URGENCIES = ['low', 'medium', 'high', 'critical'] as const;
export type Urgency = (typeof URGENCIES)[number];

export interface AssignAction {
  readonly type: 'assign';
  /** Account users (usr_), teams (tem_) and routers (rtr_), each once, in the order written. */
  readonly receiver: readonly string[];
  readonly delayMs: number;
}
export interface AggregateAction {
  readonly type: 'aggregate';
  /** Dot paths into the match data whose values form the fingerprint. */
  readonly by: readonly string[];
  readonly timeoutMs: number;
  readonly receiver: readonly string[];
}
export interface IgnoreAction {
  readonly type: 'ignore';
}
export interface IncidentAction {
  readonly type: 'incident';
  readonly severity: IncidentSeverity;
  readonly message?: string;
  readonly handlebars: boolean;
}
export interface SetvalMap {
  readonly title?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly urgency?: Urgency;
}
export interface SetvalAction {
  readonly type: 'setval';
  readonly map: SetvalMap;
  readonly handlebars: boolean;
}
export interface StakeholderAction {
  readonly type: 'stakeholder';
  readonly ids: readonly string[];
}
export type RouterAction = AssignAction | AggregateAction | IgnoreAction | IncidentAction | SetvalAction | StakeholderAction;

export type RouterRule = BaseRule<RouterAction>;
export interface RouterDocument {
  readonly rules: readonly RouterRule[];
}

const RECEIVER_ID = /^(usr|tem|rtr)_[A-Za-z0-9]+$/;
const RECEIVER_EXPECTED = 'a prefix id of an account user (usr_), team (tem_) or router (rtr_)';
const STAKEHOLDER_ID = /^stk_[A-Za-z0-9]+$/;

const readReceiver = (action: Record<string, unknown>, path: Path, report: Report) =>
  readIdList(action.receiver, 'receiver', RECEIVER_ID, RECEIVER_EXPECTED, path, report);

const readAssign: ActionReader<AssignAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'receiver', 'delay'], path, report, 'in assign action');
  const receiver = readReceiver(action, path, report);
  const delayMs = readDuration(action, 'delay', { required: false, positive: false }, path, report) ?? 0;
  return { type: 'assign', receiver, delayMs };
};

const readAggregate: ActionReader<AggregateAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'by', 'timeout', 'receiver'], path, report, 'in aggregate action');
  const by = readStringList(action.by, 'by', path, report);
  by.forEach((field) => {
    if (field.split('.').some((part) => part === '')) report([...path, 'by'], `by path "${field}" has an empty part`);
  });
  const timeoutMs = readDuration(action, 'timeout', { required: true, positive: true }, path, report) ?? 0;
  return { type: 'aggregate', by, timeoutMs, receiver: readReceiver(action, path, report) };
};

const readIgnore: ActionReader<IgnoreAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type'], path, report, 'in ignore action');
  return { type: 'ignore' };
};

/** Severity is read case-insensitively (`sev-1`), as the webhook reads meta.severity. */
function readSeverity(value: unknown, path: Path, report: Report): IncidentSeverity {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
  const severity = INCIDENT_SEVERITIES.find((s) => s === upper);
  if (value === undefined) report(path, 'severity is required');
  else if (!severity) report([...path, 'severity'], `severity must be one of ${INCIDENT_SEVERITIES.join(', ')}`);
  return severity ?? 'SEV-UNKNOWN';
}

const readIncident: ActionReader<IncidentAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'severity', 'message', 'handlebars'], path, report, 'in incident action');
  const severity = readSeverity(action.severity, path, report);
  const message = readOptionalString(action, 'message', path, report);
  const handlebars = readBoolean(action, 'handlebars', path, report);
  if (handlebars) reportTemplateProblems(message, 'message', path, report);
  return message === undefined ? { type: 'incident', severity, handlebars } : { type: 'incident', severity, message, handlebars };
};

const SETVAL_KEYS = ['title', 'description', 'tags', 'urgency'];

function readSetvalMap(value: unknown, handlebars: boolean, path: Path, report: Report): SetvalMap {
  const at = [...path, 'map'];
  if (value === undefined) report(path, 'map is required');
  else if (!isMapping(value) || Object.keys(value).length === 0) {
    report(at, `map must be a mapping of ${SETVAL_KEYS.join(', ')}`);
  }
  if (!isMapping(value)) return {};
  reportUnknownKeys(value, SETVAL_KEYS, at, report, 'in setval map; only title, description, tags and urgency can be set');
  const title = readOptionalString(value, 'title', at, report);
  if (title !== undefined && title.trim() === '') report([...at, 'title'], 'title must not be empty');
  const description = readOptionalString(value, 'description', at, report);
  const tags = value.tags === undefined ? undefined : readStringList(value.tags, 'tags', at, report);
  const urgency = URGENCIES.find((u) => u === value.urgency);
  if (value.urgency !== undefined && !urgency) report([...at, 'urgency'], `urgency must be one of ${URGENCIES.join(', ')}`);
  if (handlebars) {
    reportTemplateProblems(title, 'title', at, report);
    reportTemplateProblems(description, 'description', at, report);
    tags?.forEach((tag) => reportTemplateProblems(tag, 'tags', at, report));
  }
  return {
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(tags !== undefined && { tags }),
    ...(urgency !== undefined && { urgency }),
  };
}

const readSetval: ActionReader<SetvalAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'map', 'handlebars'], path, report, 'in setval action');
  const handlebars = readBoolean(action, 'handlebars', path, report);
  return { type: 'setval', map: readSetvalMap(action.map, handlebars, path, report), handlebars };
};

const readStakeholder: ActionReader<StakeholderAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'ids'], path, report, 'in stakeholder action');
  const ids = readIdList(action.ids, 'ids', STAKEHOLDER_ID, 'a stakeholder prefix id (stk_)', path, report);
  return { type: 'stakeholder', ids };
};

const ROUTER_GRAMMAR: RuleGrammar<RouterAction, RouterRule> = {
  extraRuleKeys: [],
  actions: {
    assign: readAssign,
    aggregate: readAggregate,
    ignore: readIgnore,
    incident: readIncident,
    setval: readSetval,
    stakeholder: readStakeholder,
  },
  finishRule: (_rule, base) => base,
};

/** Parses and validates a router's `rules` YAML; call on every write with `{onSave: true}` and refuse the write on problems. */
export function parseRouterRules(yamlText: string, options: ParseOptions = {}): ParseResult<RouterDocument> {
  return parseRulesDocument(yamlText, ROUTER_GRAMMAR, options);
}

/** The first rule (top-down) whose match holds, with its actions; `{matched: false}` means the default receiver. */
export function evaluateRouter(doc: RouterDocument, data: unknown, now: Date): Evaluation<RouterAction> {
  return firstMatchingRule(doc.rules, data, now);
}

/**
 * Whether the alert still goes to the router's default receiver: nothing matched, or the matched rule
 * only decorates the alert (no assign, aggregate or ignore): docs/rules.md, "Choices made where the reference is silent".
 */
export function routesToDefaultReceiver(evaluation: Evaluation<RouterAction>): boolean {
  if (!evaluation.matched) return true;
  return !evaluation.actions.some((a) => a.type === 'assign' || a.type === 'aggregate' || a.type === 'ignore');
}

/** Every receiver id the rules route to (assign and aggregate), once each, so the API can check they exist. */
export function receiverIdsOf(doc: RouterDocument): string[] {
  const ids = doc.rules.flatMap((rule) =>
    rule.actions.flatMap((a) => (a.type === 'assign' || a.type === 'aggregate' ? a.receiver : [])),
  );
  return [...new Set(ids)];
}

/** Every stakeholder id the rules attach, once each. */
export function stakeholderIdsOf(doc: RouterDocument): string[] {
  const ids = doc.rules.flatMap((rule) => rule.actions.flatMap((a) => (a.type === 'stakeholder' ? a.ids : [])));
  return [...new Set(ids)];
}
