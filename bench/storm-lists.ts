// Alert storms, part "lists": GET /schedules?limit=10 against a raw Query(10) in accounts of 1,000 and 5,000
// schedules, the one copy of this measurement (bench/hot-paths.ts prints it too; docs/benchmarks.md, "Alert storms").
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#lib/people/new-account.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { accountPk, entityPrefix } from '#lib/db/keys.ts';
import { createEntity } from '#lib/db/repository.ts';
import { measureAlternating, type Timing } from './timing.ts';

// 300 calls a side, in alternating rounds of 30: noise from the machine's other work hits both sides alike.
const RUNS = { rounds: 10, perRound: 30, warmup: 20 };
export const LIST_SIZES = [1000, 5000] as const;

/** Creates `count` schedules in the account through the repository (the same writes POST /schedules makes). */
async function fillSchedules(accountId: string, count: number): Promise<void> {
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < count) {
        made++;
        await createEntity('SCHEDULE', accountId, { name: `Bench ${made}` }, { meta: {} });
      }
    }),
  );
}

export interface ListRow {
  size: number;
  raw: Timing;
  endpoint: Timing;
}

/**
 * Per size: an account filled with that many schedules, then raw Query(10) and the endpoint timed one call at a time,
 * in alternating rounds. The warm-up's first list checks the count kept beside the schedules (docs/lists.md, Cost).
 */
export async function measureScheduleLists(baseUrl: string): Promise<ListRow[]> {
  const rows: ListRow[] = [];
  for (const size of LIST_SIZES) {
    const { account, apiKey } = await createAccount({ name: `List ${size}`, adminEmail: `list-${size}-${Date.now()}@example.test` });
    await fillSchedules(account.id, size);
    const raw = () =>
      documentClient().send(
        new QueryCommand({
          TableName: config().tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': accountPk(account.id), ':prefix': entityPrefix('SCHEDULE') },
          ScanIndexForward: false,
          Limit: 10,
          ConsistentRead: true,
        }),
      );
    const page = async () => {
      const reply = await fetch(`${baseUrl}/api/v4/schedules?limit=10`, { headers: { authorization: `Bearer ${apiKey}` } });
      const text = await reply.text();
      if (reply.status !== 200) throw new Error(`GET /schedules answered ${reply.status}: ${text.slice(0, 300)}`);
    };
    const [rawTiming, endpoint] = await measureAlternating(RUNS.rounds, RUNS.perRound, 1, RUNS.warmup, raw, page);
    rows.push({ size, raw: rawTiming, endpoint });
  }
  return rows;
}
