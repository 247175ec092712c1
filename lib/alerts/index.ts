// Alerts: the resource, its storage in per-alert partitions with list indexes and counters, and the escalation
// runner that applies the engine's steps. docs/alerts.md.
export { onAlertTimer } from './runner.ts';
