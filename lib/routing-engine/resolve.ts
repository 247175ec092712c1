// The walk through an alert's routers: every router reached runs its first matching rule (or its default
// receivers), depth first in the order written, and every decision is logged. Rules: docs/routing.md.
import { MAX_ROUTER_DEPTH, MAX_ROUTER_EVALUATIONS } from '../limits.ts';
import {
  evaluateRouter,
  matchDataOf,
  parseRouterRules,
  routesToDefaultReceiver,
  type AggregateAction,
  type IncidentAction,
  type RouterAction,
  type SetvalAction,
  type StakeholderAction,
} from '../rule-engine/index.ts';
import { aggregateFingerprint } from './fingerprint.ts';
import { afterDelay, chainText, durationText, receiverNoun, routerLabel, ruleLabel } from './messages.ts';
import { renderTemplate } from './templates.ts';
import type {
  AggregateDecision,
  AlertChanges,
  FindReceiver,
  LoadRouter,
  RoutedReceiver,
  RoutingInput,
  RoutingLogEntry,
  RoutingLogEvent,
  RoutingOutcome,
  RoutingRouter,
} from './types.ts';

/** How the alert reached a router or receiver: the routers passed through and the delay summed on the way. */
interface Route {
  readonly chain: readonly RoutingRouter[];
  readonly delayMs: number;
  /** Aggregate decisions whose receivers are being resolved below this point. */
  readonly collectors: readonly RoutedReceiver[][];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const RECEIVER_KINDS: Readonly<Record<string, 'team' | 'account_user' | 'router'>> = { tem: 'team', usr: 'account_user', rtr: 'router' };

const kindOfPrefixId = (id: string) => RECEIVER_KINDS[id.split('_', 1)[0] ?? ''];

export class RoutingWalk {
  private readonly alert: Record<string, unknown>;
  private readonly changes: Mutable<AlertChanges> = {};
  private readonly receivers = new Map<string, RoutedReceiver>();
  private readonly aggregates: AggregateDecision[] = [];
  private readonly stakeholders = new Set<string>();
  private readonly dropped: { router_id: string | null; reason: string }[] = [];
  private readonly log: RoutingLogEntry[] = [];
  private readonly routers = new Map<string, Promise<RoutingRouter | undefined>>();
  /** Parsed rules by router id: a router reached on several routes is parsed once. */
  private readonly documents = new Map<string, ReturnType<typeof parseRouterRules>>();
  private suppressed = false;
  private evaluations = 0;

  private readonly input: RoutingInput;
  private readonly loadRouter: LoadRouter;
  private readonly findReceiver: FindReceiver | undefined;

  constructor(input: RoutingInput, loadRouter: LoadRouter, findReceiver: FindReceiver | undefined) {
    this.input = input;
    this.loadRouter = loadRouter;
    this.findReceiver = findReceiver;
    this.alert = { ...input.alert, meta: { ...input.alert.meta }, tag_list: [...input.alert.tag_list] };
  }

  async run(): Promise<RoutingOutcome> {
    const { destinations } = this.input;
    const start: Route = { chain: [], delayMs: 0, collectors: [] };
    for (const id of destinations.team_ids ?? []) this.addReceiver({ kind: 'team', id, delay_ms: 0, router_id: null }, start, undefined);
    for (const id of destinations.account_user_ids ?? []) {
      this.addReceiver({ kind: 'account_user', id, delay_ms: 0, router_id: null }, start, undefined);
    }
    for (const id of destinations.router_ids) await this.throughRouter(id, start);
    return this.outcome();
  }

  private outcome(): RoutingOutcome {
    const receivers = [...this.receivers.values()];
    const status = receivers.length > 0 ? 'open' : this.dropped.length > 0 || !this.suppressed ? 'dropped' : 'suppressed';
    if (receivers.length === 0 && this.dropped.length === 0 && !this.suppressed) {
      this.drop(null, 'The alert has no destination left to page, so it is dropped.');
    }
    return {
      status,
      receivers,
      team_ids: receivers.filter((r) => r.kind === 'team').map((r) => r.id),
      account_user_ids: receivers.filter((r) => r.kind === 'account_user').map((r) => r.id),
      suppressed: this.suppressed,
      aggregates: this.aggregates,
      changes: this.changes,
      stakeholder_ids: [...this.stakeholders],
      dropped: this.dropped,
      log: this.log,
    };
  }

  private note(event: RoutingLogEvent, router: RoutingRouter | null, message: string, receiver?: RoutedReceiver): void {
    const entry: Mutable<RoutingLogEntry> = { event, message, router_id: router?.id ?? null };
    if (receiver?.kind === 'team') entry.team_id = receiver.id;
    if (receiver?.kind === 'account_user') entry.account_user_id = receiver.id;
    this.log.push(entry);
  }

  private drop(routerId: string | null, reason: string): void {
    // A branching cycle reaches the same dead end many times; one entry per distinct reason says it.
    if (this.dropped.some((d) => d.reason === reason)) return;
    this.dropped.push({ router_id: routerId, reason });
    this.log.push({ event: 'dropped', message: reason, router_id: routerId });
  }

  private load(id: string): Promise<RoutingRouter | undefined> {
    let loaded = this.routers.get(id);
    if (!loaded) {
      loaded = this.loadRouter(id);
      this.routers.set(id, loaded);
    }
    return loaded;
  }

  /** Runs one router the alert reached by `route`. */
  private async throughRouter(id: string, route: Route): Promise<void> {
    const from = route.chain.at(-1) ?? null;
    if (this.evaluations >= MAX_ROUTER_EVALUATIONS) {
      // One entry, however many routes are cut: the limit, not each route, is the reason.
      this.drop(from?.id ?? null, `The alert reached more than ${MAX_ROUTER_EVALUATIONS} routers; the routes beyond that were dropped.`);
      return;
    }
    const router = await this.load(id);
    if (!router) {
      this.drop(from?.id ?? null, `Router ${id} does not exist, so the alert was not routed through it.`);
      return;
    }
    const chain = [...route.chain, router];
    if (chain.length > MAX_ROUTER_DEPTH) {
      this.drop(router.id, depthReason(chain));
      return;
    }
    this.evaluations += 1;
    const here: Route = { ...route, chain };
    if (!router.enabled) {
      this.note('routed', router, `${routerLabel(router)} is disabled, so the alert goes to its default receivers.`);
      await this.toDefaults(router, here);
      return;
    }
    const parsed = this.documents.get(router.id) ?? parseRouterRules(router.rules);
    this.documents.set(router.id, parsed);
    if (!parsed.ok) {
      this.note('routed', router, `${routerLabel(router)} has rules that no longer parse, so the alert goes to its default receivers.`);
      await this.toDefaults(router, here);
      return;
    }
    const evaluation = evaluateRouter(parsed.document, this.matchData(), this.input.now);
    if (!evaluation.matched) {
      this.note('routed', router, `${routerLabel(router)}: no rule matched, so the alert goes to its default receivers.`);
      await this.toDefaults(router, here);
      return;
    }
    const rule = ruleLabel(evaluation.ruleIndex);
    for (const action of evaluation.actions) {
      const stop = await this.runAction(action, router, rule, here);
      if (stop) break;
    }
    if (routesToDefaultReceiver(evaluation)) {
      this.note('routed', router, `${routerLabel(router)}, ${rule}, only changed the alert, so it also goes to the router's default receivers.`);
      await this.toDefaults(router, here);
    }
  }

  /** Runs one action of a matched rule; true when the rule stops here (ignore). */
  private async runAction(action: RouterAction, router: RoutingRouter, rule: string, route: Route): Promise<boolean> {
    switch (action.type) {
      case 'assign': {
        const delayed: Route = { ...route, delayMs: route.delayMs + action.delayMs };
        for (const id of action.receiver) await this.toReceiver(id, router, `${routerLabel(router)}, ${rule}, assigned`, delayed);
        return false;
      }
      case 'aggregate':
        await this.aggregate(action, router, rule, route);
        return false;
      case 'ignore':
        this.suppressed = true;
        this.note('suppressed', router, `${routerLabel(router)}, ${rule}, ignored the alert: nobody is paged through this router.`);
        return true;
      case 'incident':
        this.markIncident(action, router, rule);
        return false;
      case 'setval':
        this.setValues(action, router, rule);
        return false;
      case 'stakeholder':
        this.attachStakeholders(action, router, rule);
        return false;
    }
  }

  private async toDefaults(router: RoutingRouter, route: Route): Promise<void> {
    const by = `${routerLabel(router)} sent`;
    if (router.default_receiver_team_id) this.addReceiver(receiverOf('team', router.default_receiver_team_id, route, router), route, by);
    if (router.default_receiver_account_user_id) {
      this.addReceiver(receiverOf('account_user', router.default_receiver_account_user_id, route, router), route, by);
    }
    if (router.default_receiver_router_id) await this.toRouter(router.default_receiver_router_id, router, by, route);
    if (!router.default_receiver_team_id && !router.default_receiver_account_user_id && !router.default_receiver_router_id) {
      this.drop(router.id, `${routerLabel(router)} has no default receiver, so the alert was not routed through it.`);
    }
  }

  /** A receiver a rule names by prefix id: a router runs next; a team or account user is added once it is known. */
  private async toReceiver(id: string, router: RoutingRouter, by: string, route: Route): Promise<void> {
    const kind = kindOfPrefixId(id);
    if (kind === 'router') return this.toRouter(id, router, by, route);
    if (!kind) {
      this.drop(router.id, `${by} the alert to ${id}, which is not a team, account user or router id, so that route was dropped.`);
      return;
    }
    const canonical = this.findReceiver ? await this.findReceiver(kind, id) : id;
    if (canonical === undefined) {
      this.drop(router.id, `${by} the alert to ${receiverNoun(kind)} ${id}, which does not exist, so that route was dropped.`);
      return;
    }
    this.addReceiver(receiverOf(kind, canonical, route, router), route, by);
  }

  private async toRouter(id: string, router: RoutingRouter, by: string, route: Route): Promise<void> {
    // Default receivers are stored by canonical id; the log names routers by prefix id, as rules do.
    const name = (await this.load(id))?.prefix_id ?? id;
    this.note('routed', router, `${by} the alert to router ${name}${afterDelay(route.delayMs)}.`);
    await this.throughRouter(id, route);
  }

  /** A destination reached again is escalated once, at the smallest delay it was reached with. */
  private addReceiver(receiver: RoutedReceiver, route: Route, by: string | undefined): void {
    const key = `${receiver.kind}:${receiver.id}`;
    const known = this.receivers.get(key);
    const router = route.chain.at(-1) ?? null;
    const noun = `${receiverNoun(receiver.kind)} ${receiver.id}`;
    for (const collector of route.collectors) collector.push(receiver);
    if (!known) {
      this.receivers.set(key, receiver);
      if (by) this.note('routed', router, `${by} the alert to ${noun}${afterDelay(receiver.delay_ms)}.`, receiver);
      return;
    }
    const earlier = receiver.delay_ms < known.delay_ms;
    if (earlier) this.receivers.set(key, { ...known, delay_ms: receiver.delay_ms });
    const when = earlier ? `, now${afterDelay(receiver.delay_ms) || ' at once'}` : afterDelay(known.delay_ms);
    const said = by ? `${by} the alert to ${noun}, which already receives it` : `The alert names ${noun} more than once`;
    this.note('routed', router, `${said}; it is escalated once${when}.`, receiver);
  }

  private async aggregate(action: AggregateAction, router: RoutingRouter, rule: string, route: Route): Promise<void> {
    const receivers: RoutedReceiver[] = [];
    const fingerprint = aggregateFingerprint(router.id, action.by, this.matchData());
    this.note(
      'aggregated',
      router,
      `${routerLabel(router)}, ${rule}, aggregates alerts by ${action.by.join(', ')} for ${durationText(action.timeoutMs)}: ` +
        `the first alert with these values is routed to ${action.receiver.join(', ')}; later ones within that time become its children (fingerprint ${fingerprint.slice(0, 12)}).`,
    );
    const collecting: Route = { ...route, collectors: [...route.collectors, receivers] };
    for (const id of action.receiver) await this.toReceiver(id, router, `${routerLabel(router)}, ${rule}, aggregate: sent`, collecting);
    this.aggregates.push({ router_id: router.id, fingerprint, window_ms: action.timeoutMs, receivers });
  }

  private setValues(action: SetvalAction, router: RoutingRouter, rule: string): void {
    const text = (template: string, field: string): string | undefined => this.textOf(template, action.handlebars, field, router, rule);
    const set: string[] = [];
    const { title, description, tags, urgency } = action.map;
    const newTitle = title === undefined ? undefined : text(title, 'title');
    if (newTitle !== undefined && newTitle.trim() === '') {
      this.note('routed', router, `${routerLabel(router)}, ${rule}: the title template rendered empty text, so the title was kept.`);
    } else if (newTitle !== undefined) {
      this.alert.title = this.changes.title = newTitle;
      set.push(`the title to ${JSON.stringify(newTitle)}`);
    }
    const newDescription = description === undefined ? undefined : text(description, 'description');
    if (newDescription !== undefined) {
      this.alert.description = this.changes.description = newDescription;
      set.push(`the description to ${JSON.stringify(newDescription)}`);
    }
    if (tags !== undefined) {
      const rendered = tags.map((tag) => text(tag, 'tags')).filter((tag): tag is string => tag !== undefined && tag.trim() !== '');
      const tagList = [...new Set(rendered)];
      this.alert.tag_list = this.changes.tag_list = tagList;
      set.push(`the tags to ${JSON.stringify(tagList)}`);
    }
    if (urgency !== undefined) {
      this.alert.urgency = this.changes.urgency = urgency;
      set.push(`the urgency to ${urgency}`);
    }
    if (set.length > 0) this.note('routed', router, `${routerLabel(router)}, ${rule}, set ${set.join(', ')}.`);
  }

  private markIncident(action: IncidentAction, router: RoutingRouter, rule: string): void {
    const message = action.message === undefined ? undefined : this.textOf(action.message, action.handlebars, 'message', router, rule);
    const meta = { incident: true as const, incident_severity: action.severity, ...(message !== undefined && { incident_message: message }) };
    this.changes.meta = meta;
    this.alert.meta = { ...(this.alert.meta as Record<string, unknown>), ...meta };
    const said = message === undefined ? '' : ` with the message ${JSON.stringify(message)}`;
    this.note('routed', router, `${routerLabel(router)}, ${rule}, marked the alert an incident of severity ${action.severity}${said}.`);
  }

  private attachStakeholders(action: StakeholderAction, router: RoutingRouter, rule: string): void {
    action.ids.forEach((id) => this.stakeholders.add(id));
    this.note('routed', router, `${routerLabel(router)}, ${rule}, attached the stakeholders ${action.ids.join(', ')}.`);
  }

  /** A string of an action: as written, or rendered over the match data; undefined when a template fails. */
  private textOf(template: string, handlebars: boolean, field: string, router: RoutingRouter, rule: string): string | undefined {
    if (!handlebars) return template;
    const rendered = renderTemplate(template, this.matchData());
    if (rendered.ok) return rendered.text;
    this.note('routed', router, `${routerLabel(router)}, ${rule}: the ${field} template could not be rendered (${rendered.reason}), so the ${field} was left as it was.`);
    return undefined;
  }

  /** What queries and templates see: the alert with every change made so far. */
  private matchData() {
    return matchDataOf(this.alert, this.input.log ?? {}, this.input.logParsed ?? false);
  }
}

function receiverOf(kind: 'team' | 'account_user', id: string, route: Route, router: RoutingRouter): RoutedReceiver {
  return { kind, id, delay_ms: route.delayMs, router_id: router.id };
}

function depthReason(chain: readonly RoutingRouter[]): string {
  const firstRepeat = chain.findIndex((router, i) => chain.findIndex((r) => r.id === router.id) !== i);
  if (firstRepeat >= 0) {
    const start = chain.findIndex((r) => r.id === chain[firstRepeat]?.id);
    const loop = chain.slice(start, firstRepeat + 1);
    return (
      `Routers send the alert around a cycle (${chainText(loop)}), so it was dropped on this route after ${MAX_ROUTER_DEPTH} routers; ` +
      `routers nest at most ${MAX_ROUTER_DEPTH} deep.`
    );
  }
  return `Routers nest more than ${MAX_ROUTER_DEPTH} deep (${chainText(chain)}), so the alert was dropped on this route.`;
}
