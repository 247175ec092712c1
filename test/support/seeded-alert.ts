// An alert item written straight to the table, as a create stores it with its list index keys, for benchmarks and
// tests that need thousands of alerts without thousands of webhooks (docs/benchmarks.md, "Console alert lists").
import { alertIndexKeys, type AlertItem } from '#lib/alerts/items.ts';
import { alertKey } from '#lib/db/keys.ts';
import { newAlertEscalation, type AlertStatus } from '#lib/escalation-engine/index.ts';
import { newId, newPrefixId } from '#lib/ids.ts';

export interface SeededAlertData {
  title: string;
  description: string | null;
  urgency: 'high' | 'low';
  status: AlertStatus;
  tag_list: string[];
  source_id: string;
  destination_team_ids: string[];
}

/** The alert numbered `tinyId`, created at `createdMs`, holding `data` (its source an account user). */
export function seededAlertItem(accountId: string, tinyId: number, createdMs: number, data: SeededAlertData): AlertItem {
  const id = newId(createdMs);
  const createdAt = new Date(createdMs).toISOString();
  return {
    ...alertKey(accountId, id),
    ...alertIndexKeys(accountId, id, createdAt, data.status),
    type: 'ALERT',
    accountId,
    id,
    prefixId: newPrefixId('ALERT'),
    tinyId,
    version: 1,
    createdAt,
    updatedAt: createdAt,
    meta: {},
    data: { ...data, source_type: 'AccountUser' },
    escalation: { ...newAlertEscalation(1), status: data.status },
  } as unknown as AlertItem;
}
