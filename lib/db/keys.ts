// Pure key builders: the only place that knows how items are laid out in the single table.
// Layout and access patterns: docs/storage.md.
import { createHash } from 'node:crypto';
import { DYNAMODB_PARTITION_KEY_BYTES, OUTBOX_SHARDS } from '../limits.ts';

// The entity types are a basic (lib/entity-types.ts), so lib/ids.ts makes a prefix per type without importing storage.
import type { EntityType } from '../entity-types.ts';
export type { EntityType };

export const accountPk = (accountId: string) => `A#${accountId}`;
export const entitySk = (type: EntityType, id: string) => `${type}#${id}`;
export const entityPrefix = (type: EntityType) => `${type}#`;
/** Alias item resolving a prefix_id to its entity's sort key, in the same account partition. */
export const prefixAliasSk = (prefixId: string) => `PID#${prefixId}`;
export const counterSk = (type: EntityType) => `COUNTER#${type}`;
/**
 * A copy of a collection's count kept beside its items: `<TYPE>$COUNT` sorts right after every `<TYPE>#<id>`, so
 * one Query reads the newest items and the count (docs/lists.md, Cost; docs/storage.md).
 */
export const besideCountSk = (type: EntityType) => `${type}$COUNT`;
/**
 * One shard of a counter (or of a partition's counter group) that every alert create or webhook request changes: its
 * sort key in a partition of its own per shard, `<pk>#CNT#<shard>`, so the account partition and no single item takes
 * every create (lib/db/counters.ts).
 */
export const counterShardKey = (key: { pk: string; sk: string }, shard: number) => ({ pk: `${key.pk}#CNT#${shard}`, sk: key.sk });
// Outbox messages ----------------------------------------------------------------------------------------------
// Every page writes an outbox message, so they do not share one partition: each lives in one of OUTBOX_SHARDS
// partitions chosen by a stable hash of its id (its prefix-id alias by a hash of the prefix id), and a message by id
// is still one GetItem. Messages written before sharding stay in the account partition and are read there too.
// Rules: docs/decisions/0027-sharded-outbox.md, docs/storage.md.

/** The shard (0 … OUTBOX_SHARDS − 1) of a message id or prefix id: the first 4 bytes of its SHA-256. Pure and stable. */
export function outboxShardOf(text: string): number {
  return createHash('sha256').update(text, 'utf8').digest().readUInt32BE(0) % OUTBOX_SHARDS;
}
/** One outbox partition of the account. */
export const outboxShardPk = (accountId: string, shard: number) => `${accountPk(accountId)}#OUTBOX#${shard}`;
/** Where an outbox message written since sharding lives. */
export const outboxKey = (accountId: string, messageId: string) => ({ pk: outboxShardPk(accountId, outboxShardOf(messageId)), sk: entitySk('OUTBOX', messageId) });
/** Where an outbox message written before sharding lives: the account partition. */
export const unshardedOutboxKey = (accountId: string, messageId: string) => ({ pk: accountPk(accountId), sk: entitySk('OUTBOX', messageId) });
/** The message's key when the writer recorded whether it is sharded (a notification record's `outbox_sharded`). */
export const outboxKeyOf = (accountId: string, messageId: string, sharded: boolean) => (sharded ? outboxKey : unshardedOutboxKey)(accountId, messageId);
/** The prefix-id alias of an outbox message written since sharding. */
export const outboxAliasKey = (accountId: string, prefixId: string) => ({ pk: outboxShardPk(accountId, outboxShardOf(prefixId)), sk: prefixAliasSk(prefixId) });
/** Every partition holding outbox messages of the account: the shards, then the account partition (older messages). */
export const outboxPartitions = (accountId: string): string[] => [...Array.from({ length: OUTBOX_SHARDS }, (_, shard) => outboxShardPk(accountId, shard)), accountPk(accountId)];
/**
 * Where an entity's prefix-id alias lives: beside the entity in its partition, except for a sharded outbox message,
 * whose alias is in the shard of its prefix id (a lookup by prefix id knows nothing else).
 */
export function aliasKeyOf(entity: { pk: string; prefixId: string; type?: string; accountId?: string }): { pk: string; sk: string } {
  if (entity.type === 'OUTBOX' && entity.accountId !== undefined && entity.pk !== accountPk(entity.accountId)) return outboxAliasKey(entity.accountId, entity.prefixId);
  return { pk: entity.pk, sk: prefixAliasSk(entity.prefixId) };
}

/** A calendar feed's token: the SHA-256 of the secret, in a partition of its own (docs/schedules.md, "Calendar feeds"). */
export const feedTokenKey = (tokenHash: string) => ({ pk: `ICAL#${tokenHash}`, sk: 'ICAL' });
/** The current feed token (its hash) of a schedule or an account user, in the account partition. */
export const feedOwnerKey = (accountId: string, kind: 'schedule' | 'person', id: string) => ({ pk: accountPk(accountId), sk: `ICALFEED#${kind}#${id}` });

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
/** The lookup item of an integration's sender key (a PagerDuty routing key), keyed by the key's SHA-256: never the key itself. */
export const senderKeyLookupKey = (keyHash: string) => ({ pk: `INTEGRATION_KEY#${keyHash}`, sk: 'INTEGRATION' });

/** Child collections (e.g. comments of an alert) are listed through gsi1 by parent. */
export const childrenGsi = (accountId: string, parentType: string, parentId: string) => `A#${accountId}#${parentType}#${parentId}`;

// Alerts ----------------------------------------------------------------------------------------------------
// Alerts are unbounded, so each lives in its own partition (with its logs, notification records, team index
// items and timers), and the account-wide lists come from indexes. Layout: docs/storage.md, "Alerts".

/** The partition of one alert: the alert item, its log entries, notification records, team index items and timers. */
export const alertPk = (accountId: string, alertId: string) => `${accountPk(accountId)}#AL#${alertId}`;
export const ALERT_SK = 'ALERT';
export const alertKey = (accountId: string, alertId: string) => ({ pk: alertPk(accountId, alertId), sk: ALERT_SK });
export const ALERT_LOG_SK_PREFIX = 'LOG#';
export const alertLogSk = (logId: string) => `${ALERT_LOG_SK_PREFIX}${logId}`;
export const ALERT_NOTIFICATION_SK_PREFIX = 'NOTIF#';
export const alertNotificationSk = (notificationId: string) => `${ALERT_NOTIFICATION_SK_PREFIX}${notificationId}`;
/** One item per destination team of the alert: it puts the alert in the team's list (gsi1). */
export const alertTeamSk = (teamId: string) => `TEAM#${teamId}`;
/** Resolves an alert's prefix_id (`alt_…`) to its id, in a partition of its own (the account partition stays small). */
export const alertAliasKey = (accountId: string, prefixId: string) => ({ pk: `${accountPk(accountId)}#ALPID#${prefixId}`, sk: 'ALIAS' });
/** Every alert of the account, ordered by `<created_at>#<id>` (gsi1). */
export const accountAlertsGsi = (accountId: string) => `${accountPk(accountId)}#ALERTS`;
/** The alerts of the account with one status, ordered by `<created_at>#<id>` (gsi2). */
export const statusAlertsGsi = (accountId: string, status: string) => `${accountPk(accountId)}#ALERTS#${status}`;
/** The alerts that have the team as a destination, ordered by `<created_at>#<id>` (gsi1, on the team index items). */
export const teamAlertsGsi = (accountId: string, teamId: string) => `${accountPk(accountId)}#TEAMALERTS#${teamId}`;
/** Sort key of every alert list: creation instant, then id (ULIDs of one millisecond still order). */
export const alertListSk = (createdAt: string, alertId: string) => `${createdAt}#${alertId}`;
/**
 * Exact counts of alerts: all (`COUNTER#ALERT`), per status and per team, sharded (lib/db/counters.ts): all and per
 * status as attributes of the account's counter group items, per team in items of their own.
 */
export const alertStatusCounterSk = (status: string) => `COUNTER#ALERT#STATUS#${status}`;
export const alertTeamCounterSk = (teamId: string) => `COUNTER#ALERT#TEAM#${teamId}`;
/** One item per aggregate fingerprint of a parent alert: later alerts of the fingerprint find it (gsi1, newest first). */
export const alertFingerprintSk = (fingerprint: string) => `FP#${fingerprint}`;
export const fingerprintAlertsGsi = (accountId: string, fingerprint: string) => `${accountPk(accountId)}#FP#${fingerprint}`;
/**
 * The alert's third-party identity (`thirdparty_id`, set by integrations): one index item per alert in its own
 * partition, listed account-wide by the identity (gsi1) and per integration and identity (gsi2), newest first.
 */
export const ALERT_THIRDPARTY_SK = 'THIRDPARTY';
export const thirdpartyAlertsGsi = (accountId: string, thirdpartyId: string) => withText(`${accountPk(accountId)}#TPALERTS`, thirdpartyId);
export const integrationThirdpartyAlertsGsi = (accountId: string, integrationId: string, thirdpartyId: string) =>
  withText(`${accountPk(accountId)}#INTTP#${integrationId}`, thirdpartyId);
/**
 * The newest alert an integration made for one identity: a key item, in the partition named like that integration's
 * index of the identity, which every create of the integration overwrites in its transaction, so the webhook finds the
 * alert an event is about with one strongly consistent read instead of a query of an index (docs/storage.md, "Alerts").
 */
export const integrationThirdpartyNewestKey = (accountId: string, integrationId: string, thirdpartyId: string) => ({
  pk: integrationThirdpartyAlertsGsi(accountId, integrationId, thirdpartyId),
  sk: 'NEWEST',
});
/**
 * The claim of a dedup key in the account: names the alert that holds the key, in a partition of its own, so two
 * creates with one key collide on one conditional write. A claim whose alert is resolved or gone is stale.
 */
export const dedupClaimKey = (accountId: string, dedupKey: string) => ({ pk: `${accountPk(accountId)}#DEDUP#${dedupKey}`, sk: 'DEDUP' });
/** The exact count of alerts of one thirdparty_id, in a partition of its own (identities are unbounded). */
export const alertThirdpartyCounterKey = (accountId: string, thirdpartyId: string) => ({ pk: withText(`${accountPk(accountId)}#TPCOUNT`, thirdpartyId), sk: 'COUNTER' });
/**
 * `<head>#<text>` for a partition key holding a client's text (an alert Id of 1,024 characters can take 4 KB of
 * UTF-8); `<head>~<SHA-256 of text>` when that would pass DynamoDB's partition key limit. Every key that fits keeps
 * its plain form, and no plain key can equal a hashed one (`#` and `~` differ where the text starts).
 */
function withText(head: string, text: string): string {
  const plain = `${head}#${text}`;
  return Buffer.byteLength(plain, 'utf8') <= DYNAMODB_PARTITION_KEY_BYTES ? plain : `${head}~${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

// Broadcasts -------------------------------------------------------------------------------------------------
// The broadcast item is a configuration entity in the account partition; what grows with its send (recipients,
// notification records, timers) lives in a partition of its own. Layout: docs/storage.md, "Broadcasts".

/** The partition of one broadcast's recipients, notification records and timers. */
export const broadcastPk = (accountId: string, broadcastId: string) => `${accountPk(accountId)}#BR#${broadcastId}`;
/** A schedule's daily gap check: its state item and its timers (docs/schedules.md, "Gaps"). */
export const scheduleCheckPk = (accountId: string, scheduleId: string) => `${accountPk(accountId)}#SC#${scheduleId}`;
export const gapCheckKey = (accountId: string, scheduleId: string) => ({ pk: scheduleCheckPk(accountId, scheduleId), sk: 'GAPCHECK' });
const BROADCAST_RECIPIENT_SK_PREFIX = 'RCPT#';
/** One item per person the broadcast was sent to: who may answer it. */
export const broadcastRecipientSk = (accountUserId: string) => `${BROADCAST_RECIPIENT_SK_PREFIX}${accountUserId}`;
// Contact methods and SMS replies ---------------------------------------------------------------------------
// Layout: docs/storage.md, "Items"; rules: docs/notifications.md.

/** One contact method (a channel and an address) of an account: its throttle send history and the messages waiting. */
export const contactPk = (accountId: string, channel: string, address: string) => `${accountPk(accountId)}#CONTACT#${channel}#${address}`;
export const CONTACT_SENDS_SK = 'SENDS';
export const CONTACT_PENDING_SK_PREFIX = 'PENDING#';
export const contactPendingSk = (notificationId: string) => `${CONTACT_PENDING_SK_PREFIX}${notificationId}`;
/**
 * One delivery provider or server of the deployment (`email:smtp@host:port`), across accounts: its breaker's state
 * (`BREAKER`), the messages held while it is down (`HELD#<held at>#<notification id>`) and its probe timers.
 * docs/decisions/0032-provider-breaker.md.
 */
export const providerPk = (breakerKey: string) => `PROVIDER#${breakerKey}`;
export const PROVIDER_BREAKER_SK = 'BREAKER';
export const PROVIDER_HELD_SK_PREFIX = 'HELD#';
export const providerHeldSk = (heldAt: string, notificationId: string) => `${PROVIDER_HELD_SK_PREFIX}${heldAt}#${notificationId}`;
/**
 * The reply codes issued to one phone number, across accounts: an inbound SMS names only the number it came from.
 * `CODE#<code>` maps a code to the alerts and account user it was issued for; `SEQ` hands out the codes.
 */
export const replyCodesPk = (phone: string) => `SMSREPLY#${phone}`;
export const REPLY_CODE_SK_PREFIX = 'CODE#';
export const replyCodeKey = (phone: string, code: string) => ({ pk: replyCodesPk(phone), sk: `${REPLY_CODE_SK_PREFIX}${code}` });
export const replyCodeSequenceKey = (phone: string) => ({ pk: replyCodesPk(phone), sk: 'SEQ' });

// Outgoing webhooks ------------------------------------------------------------------------------------------
// Everything webhook-related about one subject (an alert, later a broadcast) lives in a partition of its own:
// the recorded events, the deliveries of each subscription (one lane per subscription, ordered by the event's
// sequence) and their timers. Layout: docs/storage.md, "Outgoing webhooks".

/** The webhook partition of one subject (an alert id, a broadcast id, or a subscription id for test events). */
export const webhookPk = (accountId: string, subjectId: string) => `${accountPk(accountId)}#WH#${subjectId}`;
export const WEBHOOK_EVENT_SK_PREFIX = 'EVT#';
export const webhookEventSk = (sequence: string) => `${WEBHOOK_EVENT_SK_PREFIX}${sequence}`;
/** The lane of one subscription within a subject's partition: its deliveries sort in event order. */
export const webhookLanePrefix = (subscriptionId: string) => `DLV#${subscriptionId}#`;
export const webhookDeliverySk = (subscriptionId: string, sequence: string, index: number) => `${webhookLanePrefix(subscriptionId)}${sequence}#${String(index).padStart(2, '0')}`;
/** Every delivery of one subscription, newest first by delivery id (gsi1): the delivery log. */
export const subscriptionDeliveriesGsi = (accountId: string, subscriptionId: string) => `${accountPk(accountId)}#OWHD#${subscriptionId}`;
/** The in-flight slots of one subscription (bounded concurrency per receiver) and its failure streak. */
export const webhookSlotKey = (accountId: string, subscriptionId: string, slot: number) => ({ pk: `${accountPk(accountId)}#OWHS#${subscriptionId}`, sk: `SLOT#${slot}` });
export const webhookHealthKey = (accountId: string, subscriptionId: string) => ({ pk: `${accountPk(accountId)}#OWHS#${subscriptionId}`, sk: 'HEALTH' });

// Console sign-in and sessions ------------------------------------------------------------------------------------
// Global items keyed by the SHA-256 of a secret (a sign-in link's token, a session id), each in a partition of its
// own and removed by DynamoDB TTL after it expires; rate counters per fixed window. Rules: docs/console.md.

/** A one-time sign-in link: the hash of its token. */
export const signInTokenKey = (tokenHash: string) => ({ pk: `SIGNIN#${tokenHash}`, sk: 'SIGNIN' });
/** A queued sign-in request the worker has taken (a redelivered message sends no second link). */
export const signInRequestKey = (requestId: string) => ({ pk: `SIGNINREQ#${requestId}`, sk: 'SIGNINREQ' });
/** A console session: the hash of its id. */
export const sessionKey = (sessionHash: string) => ({ pk: `SESSION#${sessionHash}`, sk: 'SESSION' });
/** The sign-in requests of one subject (an address's hash, a source IP) in one fixed window. */
export const signInRateKey = (kind: 'address' | 'ip', subject: string, windowStart: number) => ({ pk: `SIGNINRATE#${kind}#${subject}`, sk: `W#${windowStart}` });
/** The local inbox of an account (npm start only): one item per message, newest last (ULID sort keys). */
export const localInboxPk = (accountId: string) => `${accountPk(accountId)}#INBOX`;
export const localInboxKey = (accountId: string, messageId: string) => ({ pk: localInboxPk(accountId), sk: `MSG#${messageId}` });

// Heartbeats -------------------------------------------------------------------------------------------------------
// A heartbeat integration's last ping and the timer that fires when the next one is missed live in a partition of
// their own. Layout: docs/storage.md, "Items".

/** The heartbeat partition of one integration (its state item and its durable timers). */
export const heartbeatPk = (accountId: string, integrationId: string) => `${accountPk(accountId)}#HB#${integrationId}`;
export const heartbeatStateKey = (accountId: string, integrationId: string) => ({ pk: heartbeatPk(accountId, integrationId), sk: 'HEARTBEAT' });

/** An aws_cloudwatch integration's SNS subscriptions, one item per topic (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)"). */
export const snsSubscriptionsPk = (accountId: string, integrationId: string) => `${accountPk(accountId)}#SNS#${integrationId}`;
export const snsSubscriptionKey = (accountId: string, integrationId: string, topicArn: string) => ({ pk: snsSubscriptionsPk(accountId, integrationId), sk: `SUB#${topicArn}` });
