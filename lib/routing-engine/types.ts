// The contract of the routing resolver: what the alerts service passes in and what it gets back. Rules:
// docs/routing.md.
import type { IncidentSeverity, Urgency } from '../rule-engine/index.ts';

/**
 * The alert as built, before it is stored; routers match it as `alert` and setval/incident change it. Pass the
 * whole object: every other field it has (thirdparty_id, source_log_id, …) is visible to queries and templates.
 */
export interface RoutingAlert {
  readonly title: string;
  readonly description?: string | null;
  readonly urgency: Urgency;
  readonly tag_list: readonly string[];
  readonly meta: Readonly<Record<string, unknown>>;
  readonly dedup_keys?: readonly string[];
  readonly additional_data?: readonly unknown[];
  readonly source_type?: string;
  readonly source_id?: string;
}

export interface RoutingInput {
  readonly alert: RoutingAlert;
  /** The source log (webhook body, email); `{}` for an alert created through the API. */
  readonly log?: unknown;
  /** Whether the source log could be parsed (`log_parsed` in queries). */
  readonly logParsed?: boolean;
  /** The alert's own destinations. Routers are resolved; teams and account users pass through (deduplicated). */
  readonly destinations: {
    readonly router_ids: readonly string[];
    readonly team_ids?: readonly string[];
    readonly account_user_ids?: readonly string[];
  };
  /** The instant special functions ($day, $now, $timeBetween) test. */
  readonly now: Date;
}

/** A router as the resolver needs it; the alerts service maps its stored router onto this. */
export interface RoutingRouter {
  /** Canonical id; log entries carry it as `router_id`. */
  readonly id: string;
  readonly prefix_id: string;
  readonly name: string;
  readonly enabled: boolean;
  /** The rules YAML as stored (checked on save; a document that no longer parses sends to the defaults). */
  readonly rules: string;
  readonly default_receiver_account_user_id: string | null;
  readonly default_receiver_router_id: string | null;
  readonly default_receiver_team_id: string | null;
}

/** Reads one router of the alert's account by canonical or prefix id; undefined when there is none. */
export type LoadRouter = (idOrPrefixId: string) => Promise<RoutingRouter | undefined>;

/**
 * Optional: turns a team or account user id as a rule names it (`tem_…`, `usr_…`) into the canonical id, so a
 * destination named both ways is escalated once. Undefined when the receiver no longer exists. Without it,
 * ids are kept as written.
 */
export type FindReceiver = (kind: 'team' | 'account_user', idOrPrefixId: string) => Promise<string | undefined>;

export interface RoutedReceiver {
  readonly kind: 'team' | 'account_user';
  /** Canonical id when FindReceiver is given, else as written. */
  readonly id: string;
  /** Total delay before this destination starts, in real milliseconds (not yet divided by HARK_TIME_SCALE). */
  readonly delay_ms: number;
  /** The router that chose it (canonical id); null for a destination the alert named itself. */
  readonly router_id: string | null;
}

/**
 * "Aggregate the alert by `fingerprint` for `window_ms` to `receivers`". The alerts service looks for the
 * parent (docs/routing.md, "Aggregate: what the alerts service does"); the resolver never reads alerts.
 */
export interface AggregateDecision {
  readonly router_id: string;
  /** A stable digest of the router id, the `by` paths and their values in the match data. */
  readonly fingerprint: string;
  readonly window_ms: number;
  /** Where the first alert of the fingerprint goes (routers already resolved). */
  readonly receivers: readonly RoutedReceiver[];
}

/** Field changes made by setval and incident actions, to apply to the alert before it is stored. */
export interface AlertChanges {
  readonly title?: string;
  readonly description?: string;
  readonly tag_list?: readonly string[];
  readonly urgency?: Urgency;
  readonly meta?: {
    readonly incident: true;
    readonly incident_severity: IncidentSeverity;
    readonly incident_message?: string;
  };
}

export const ROUTING_LOG_EVENTS = ['routed', 'suppressed', 'aggregated', 'dropped'] as const;
export type RoutingLogEvent = (typeof ROUTING_LOG_EVENTS)[number];

/** One alert log entry explaining a routing decision. */
export interface RoutingLogEntry {
  readonly event: RoutingLogEvent;
  /** A sentence a person reads. */
  readonly message: string;
  readonly router_id: string | null;
  readonly team_id?: string;
  readonly account_user_id?: string;
}

export interface RoutingOutcome {
  /**
   * `open`: someone is to be paged (teams, account_users or an aggregate's receivers). `suppressed`: nobody,
   * and a router ignored the alert. `dropped`: nobody, and a route was abandoned (too deep, unknown router).
   */
  readonly status: 'open' | 'suppressed' | 'dropped';
  /** Teams and account users to escalate to, each once, at its smallest delay; in the order first reached. */
  readonly receivers: readonly RoutedReceiver[];
  readonly team_ids: readonly string[];
  readonly account_user_ids: readonly string[];
  /** True when at least one router chose ignore. */
  readonly suppressed: boolean;
  readonly aggregates: readonly AggregateDecision[];
  readonly changes: AlertChanges;
  readonly stakeholder_ids: readonly string[];
  /** Every route abandoned, with its reason (also in `log`). */
  readonly dropped: readonly { readonly router_id: string | null; readonly reason: string }[];
  /** Every decision in the order taken. */
  readonly log: readonly RoutingLogEntry[];
}
