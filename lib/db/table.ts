// The single table's shape, shared by the CDK stack and the local runtime so both create the same table.

export const KEY = { pk: 'pk', sk: 'sk' } as const;
export const TTL_ATTRIBUTE = 'ttl';

/** Overloaded secondary indexes: gsi1 memberships and time-ordered lists, gsi2 status lists, gsi3 sparse timers. */
export const GSIS = [
  { name: 'gsi1', pk: 'gsi1pk', sk: 'gsi1sk' },
  { name: 'gsi2', pk: 'gsi2pk', sk: 'gsi2sk' },
  { name: 'gsi3', pk: 'gsi3pk', sk: 'gsi3sk' },
] as const;

export function createTableInput(tableName: string) {
  const attributes = [KEY.pk, KEY.sk, ...GSIS.flatMap((g) => [g.pk, g.sk])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: KEY.pk, KeyType: 'HASH' as const },
      { AttributeName: KEY.sk, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: GSIS.map((g) => ({
      IndexName: g.name,
      KeySchema: [
        { AttributeName: g.pk, KeyType: 'HASH' as const },
        { AttributeName: g.sk, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
