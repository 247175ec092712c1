// The port between the integration resource and ingest (docs/architecture.md, "The integration type port";
// decision 0034). An integration shows and changes state that ingest keeps per monitor type (a heartbeat's pings and
// timer, an aws_cloudwatch integration's SNS subscriptions); the resource names what it needs here, ingest implements
// it (lib/ingest/monitor-state.ts) and functions/integrations.ts hands it over, so the resource imports no ingest code.
// A type whose intake runs a step of its own (lib/ingest/intake-steps.ts) is listed here too: its lookup item keeps
// the options the step reads.
import type { EntityItem } from '../db/repository.ts';
import type { TransactItem } from '../db/writes.ts';
import { emailAddressOf } from './email-address.ts';
import type { IntegrationData } from './schema.ts';

type Item = EntityItem<IntegrationData>;

/** The integration's type id (`webhook` on integrations stored before types). */
export const typeOf = (item: Item): string => item.data.integration_type?.id ?? 'webhook';

/** The types whose intake runs a step after `verify` and before queueing; ingest's steps are typed against this list. */
export const INTAKE_STEP_TYPES = ['aws_cloudwatch', 'heartbeat'] as const;
export type IntakeStepType = (typeof INTAKE_STEP_TYPES)[number];
export const hasIntakeStep = (typeId: string): boolean => (INTAKE_STEP_TYPES as readonly string[]).includes(typeId);

/** What the resource asks of ingest about an integration's type state. */
export interface IntegrationTypeState {
  /** Fields `GET /integrations/:id` shows from the type's state items (one read for the types that have one). */
  stateOf(item: Item): Promise<Record<string, unknown>>;
  /** Writes that ride in the transaction of a change to the integration (a heartbeat being disabled is disarmed). */
  changeWrites(current: Item, next: IntegrationData): Promise<TransactItem[]>;
}

/**
 * Fields every rendering shows without a read: an email integration's address, which its prefix id and the
 * configured inbound domain make (lib/integrations/email-address.ts), so it needs no port.
 */
export function typeFieldsOf(item: Item): Record<string, unknown> {
  return typeOf(item) === 'email' ? { email_address: emailAddressOf(item.prefixId) } : {};
}
