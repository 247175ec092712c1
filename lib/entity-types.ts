// Every stored entity type: the storage key builders (lib/db/keys.ts) lay items out by it and lib/ids.ts gives each a
// prefix of its prefix ids. A basic, so neither imports the other's layer.

export type EntityType =
  | 'SCHEDULE'
  | 'EVENT'
  | 'TEAM'
  | 'ACCOUNT_USER'
  | 'ESCALATION_POLICY'
  | 'ROUTER'
  | 'NOTIFICATION_RULE'
  | 'MAINTENANCE_WINDOW'
  | 'INTEGRATION'
  | 'COMMENT'
  | 'OUTBOX'
  | 'ALERT'
  | 'BROADCAST'
  | 'OUTGOING_WEBHOOK'
  | 'TIME_OFF';
