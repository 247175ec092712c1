// Pure key builders: the only place that knows how items are laid out in the single table.
// Layout and access patterns: docs/storage.md.

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
  | 'BROADCAST';

export const accountPk = (accountId: string) => `A#${accountId}`;
export const entitySk = (type: EntityType, id: string) => `${type}#${id}`;
export const entityPrefix = (type: EntityType) => `${type}#`;
/** Alias item resolving a prefix_id to its entity's sort key, in the same account partition. */
export const prefixAliasSk = (prefixId: string) => `PID#${prefixId}`;
export const counterSk = (type: EntityType) => `COUNTER#${type}`;

export const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });
export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });
/** API keys of an account, listed for the operator CLI. */
export const apiKeysOfAccountGsi = (accountId: string) => ({ gsi1pk: `APIKEYS#${accountId}` });
export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email.trim().toLowerCase()}`, sk: 'EMAIL' });
export const settingKey = (name: string) => ({ pk: 'SETTING', sk: name });

/** Child collections (e.g. comments of an alert) are listed through gsi1 by parent. */
export const childrenGsi = (accountId: string, parentType: string, parentId: string) => `A#${accountId}#${parentType}#${parentId}`;
