// Router destinations on create: runs the pure resolver (lib/routing-engine) with lookups of this account's routers and
// receivers, and finds the parent of an aggregated alert. Rules: docs/routing.md; what the alerts service does
// with an outcome: docs/alerts.md, "Router destinations".
import { queryFirst } from '../db/items.ts';
import { alertFingerprintSk, alertKey, alertPk, fingerprintAlertsGsi } from '../db/keys.ts';
import { cachedEntity } from '../db/config-reads.ts';
import { getItems } from '../db/items.ts';
import type { RouterData } from '../routers/schema.ts';
import { resolveRouting, type AggregateDecision, type RoutingAlert, type RoutingOutcome } from '../routing-engine/index.ts';
import type { AlertItem } from './items.ts';

export async function routeThroughRouters(
  accountId: string,
  alert: RoutingAlert,
  destinations: { router_ids: readonly string[]; team_ids: readonly string[]; account_user_ids: readonly string[] },
  now: Date,
): Promise<RoutingOutcome> {
  return resolveRouting(
    { alert, log: {}, logParsed: false, destinations, now },
    async (id) => {
      const router = await cachedEntity<RouterData>('ROUTER', accountId, id);
      return router ? { id: router.id, prefix_id: router.prefixId, ...router.data } : undefined;
    },
    async (kind, id) => (await cachedEntity(kind === 'team' ? 'TEAM' : 'ACCOUNT_USER', accountId, id))?.id,
  );
}

/** Fingerprints a parent alert keeps for its window, and the alert it was created as. */
export interface FingerprintItem {
  pk: string;
  sk: string;
  type: 'ALERT_FINGERPRINT';
  accountId: string;
  alertId: string;
  fingerprint: string;
  window_ms: number;
  gsi1pk: string;
  gsi1sk: string;
}

export function fingerprintItem(alert: Pick<AlertItem, 'accountId' | 'id' | 'createdAt'>, decision: AggregateDecision): FingerprintItem {
  return {
    pk: alertPk(alert.accountId, alert.id),
    sk: alertFingerprintSk(decision.fingerprint),
    type: 'ALERT_FINGERPRINT',
    accountId: alert.accountId,
    alertId: alert.id,
    fingerprint: decision.fingerprint,
    window_ms: decision.window_ms,
    gsi1pk: fingerprintAlertsGsi(alert.accountId, decision.fingerprint),
    gsi1sk: `${alert.createdAt}#${alert.id}`,
  };
}

/** Candidates read per fingerprint: resolved or aggregated alerts newer than a usable parent are skipped. */
const PARENT_CANDIDATES = 25;

/**
 * The parent of an alert created at `createdAt` for the first decision that has one: the newest alert carrying
 * the fingerprint, created less than the window before, without a parent of its own and not resolved.
 */
export async function findParent(accountId: string, decisions: readonly AggregateDecision[], createdAt: string): Promise<{ parent: AlertItem; decision: AggregateDecision } | undefined> {
  for (const decision of decisions) {
    const since = new Date(Date.parse(createdAt) - decision.window_ms).toISOString();
    const entries = await queryFirst<FingerprintItem>(
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :since',
        ExpressionAttributeValues: { ':pk': fingerprintAlertsGsi(accountId, decision.fingerprint), ':since': since },
        ScanIndexForward: false,
      },
      PARENT_CANDIDATES,
    );
    if (entries.length === 0) continue;
    const alerts = await getItems<AlertItem>(entries.map((e) => alertKey(accountId, e.alertId)));
    const byId = new Map(alerts.map((a) => [a.id, a]));
    for (const entry of entries) {
      const candidate = byId.get(entry.alertId);
      if (candidate && candidate.data.parent_id === null && candidate.data.status !== 'resolved') return { parent: candidate, decision };
    }
  }
  return undefined;
}

