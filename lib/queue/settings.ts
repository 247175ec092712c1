// Queue names and redrive settings shared by the CDK stack and the local runtime.

export const QUEUES = {
  ingest: { name: 'hark-ingest.fifo', maxReceiveCount: 5 },
  ingestDlq: { name: 'hark-ingest-dlq.fifo' },
} as const;
