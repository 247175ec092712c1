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
/**
 * A person's membership of an account, in the person's partition: one per person and account (a create's
 * `attribute_not_exists` makes "already a member" a condition), and a Query lists the person's accounts.
 */
export const membershipKey = (userId: string, accountId: string) => ({ pk: `USER#${userId}`, sk: `MEMBER#${accountId}` });
export const MEMBERSHIP_SK_PREFIX = 'MEMBER#';
/** The sealed secret of one outbox message (a generated password): never listed, taken once by delivery. */
export const outboxSecretKey = (messageId: string) => ({ pk: `OUTBOXSECRET#${messageId}`, sk: 'SECRET' });
/**
 * Global lookup item of an integration, written once under its id and once under its prefix_id: the
 * webhook finds the account, the enabled flag and the token hash in one GetItem by the path's id.
 */
export const integrationLookupKey = (idOrPrefixId: string) => ({ pk: `INTEGRATION#${idOrPrefixId}`, sk: 'INTEGRATION' });

/** Child collections (e.g. comments of an alert) are listed through gsi1 by parent. */
export const childrenGsi = (accountId: string, parentType: string, parentId: string) => `A#${accountId}#${parentType}#${parentId}`;
