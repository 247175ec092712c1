// The steps a type runs at intake, after `verify` and before queueing, for state a request changes at once: a
// heartbeat's ping arms its timer, an SNS subscription is confirmed (docs/ingest.md, "Readers"). They write to
// storage, so they live here beside the intake and not in the pure readers, which the OpenAPI function loads too.
import { armOnPing } from './heartbeat/on-ping.ts';
import type { IntakeContext, ReaderRequest } from '../monitor-readers/types.ts';
import { confirmOnIntake } from './sns/subscriptions.ts';
import type { IntakeStepType } from '../integrations/type-state.ts';

/** Idempotent (a retried request may run it again); its notes travel with the queued request into its log; throwing answers 503. */
export type AcceptedStep = (request: ReaderRequest, context: IntakeContext) => Promise<{ notes: string[] }>;

/** One step per type the integration resource lists (INTAKE_STEP_TYPES): a missing or extra one does not typecheck. */
export const ACCEPTED_STEPS: Readonly<Partial<Record<string, AcceptedStep>>> = {
  aws_cloudwatch: confirmOnIntake,
  heartbeat: armOnPing,
} satisfies Record<IntakeStepType, AcceptedStep>;
