// The YAML rule engines of routers and notification rules (docs/rules.md): parse and validate on
// every write, then match and evaluate as pure functions of the document, the match data and `now`.
export { problemText, type Problem } from './problems.ts';
export type { ParseOptions, ParseResult, Query } from './document.ts';
export type { Evaluation } from './evaluate.ts';
export { matchDataOf, matchQuery, type MatchData } from './match.ts';
export { parseDuration } from './duration.ts';
export { isMapping } from './values.ts';
export {
  evaluateRouter,
  parseRouterRules,
  receiverIdsOf,
  routesToDefaultReceiver,
  stakeholderIdsOf,
  INCIDENT_SEVERITIES,
  URGENCIES,
  type AggregateAction,
  type AssignAction,
  type IgnoreAction,
  type IncidentAction,
  type IncidentSeverity,
  type RouterAction,
  type RouterDocument,
  type RouterRule,
  type SetvalAction,
  type SetvalMap,
  type StakeholderAction,
  type Urgency,
} from './router.ts';
export {
  evaluateNotificationRules,
  parseNotificationRules,
  CHANNELS,
  DEFAULT_NOTIFICATION_TYPES,
  NOTIFICATION_TYPES,
  type Channel,
  type ChannelOptions,
  type IgnoreNotificationAction,
  type NotificationAction,
  type NotificationRule,
  type NotificationRulesDocument,
  type NotificationType,
  type NotifyAction,
  type RepeatAction,
} from './notification.ts';
