// Every limit Hark enforces, in one table: its name, value, unit and the reason it exists (docs/limits.md).
// Code that enforces a limit imports its value from here, so changing a limit is one edit that the docs test
// notices.

export interface Limit {
  readonly value: number;
  readonly unit: string;
  readonly reason: string;
}

export const LIMITS = {
  TRANSACTION_ITEMS: {
    value: 100,
    unit: 'items',
    reason: 'DynamoDB TransactWriteItems accepts at most 100 items; larger changes are split or refused.',
  },
} as const satisfies Record<string, Limit>;

export const TRANSACTION_ITEMS = LIMITS.TRANSACTION_ITEMS.value;
