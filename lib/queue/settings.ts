// Queue names and redrive settings shared by the CDK stack and the local runtime.

export const QUEUES = {
  ingest: { name: 'hark-ingest.fifo', maxReceiveCount: 5 },
  ingestDlq: { name: 'hark-ingest-dlq.fifo' },
  /** Standard, not FIFO: FIFO queues refuse per-message delays, and wake-ups are idempotent (docs/timers.md). */
  timers: { name: 'hark-timers', maxReceiveCount: 5 },
  timersDlq: { name: 'hark-timers-dlq' },
  /** Standard: a retry waits with a per-message delay, and the lanes in DynamoDB keep each alert's order (docs/outgoing-webhooks.md). */
  webhooks: { name: 'hark-webhooks', maxReceiveCount: 5 },
  webhooksDlq: { name: 'hark-webhooks-dlq' },
} as const;
