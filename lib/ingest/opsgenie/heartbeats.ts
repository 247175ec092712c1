// Opsgenie's heartbeat ping (`GET|POST|PUT|PATCH /v2/heartbeats/{name}/ping`) as a ping of the account's heartbeat
// integration of that name (docs/migrating.md, "From Opsgenie"). Opsgenie answers PONG without checking that the
// heartbeat exists; so does Hark, and a ping that pings nothing is kept in the log of the key's integration.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { listEntities } from '../../db/repository.ts';
import { findIntegrationLookup, type IntegrationLookupItem } from '../../integrations/lookup.ts';
import type { IntegrationData } from '../../integrations/schema.ts';
import { acceptFor } from '../intake.ts';
import { answerOf, OpsgenieError, type OpsgenieAnswer } from './shapes.ts';

export const HEARTBEAT_TYPE = 'heartbeat';

/** The account's heartbeat integrations named `name` (exactly as written); every one for null. */
export async function heartbeatsNamed(accountId: string, name: string | null) {
  const integrations = await listEntities<IntegrationData>('INTEGRATION', accountId);
  return integrations.filter((item) => item.data.integration_type?.id === HEARTBEAT_TYPE && (name === null || item.data.name === name));
}

const PONG = { result: 'PONG - Heartbeat received' };

/**
 * One heartbeat integration of that name, enabled: its ping, through its own intake (its timer is armed before the
 * answer), logged in its own log. None, or a disabled one: PONG all the same, kept with the reason in the log of the
 * key's integration. Two or more: 409, as Opsgenie answers a name it cannot tell apart.
 */
export async function pingHeartbeat(opsgenie: IntegrationLookupItem, name: string, event: APIGatewayProxyEventV2, text: string, took: () => number): Promise<OpsgenieAnswer> {
  const named = await heartbeatsNamed(opsgenie.accountId, name);
  if (named.length > 1) {
    throw new OpsgenieError(409, `Heartbeat name [${name}] is used by ${named.length} heartbeat integrations of this account (${named.map((item) => item.prefixId).join(', ')}); give each a name of its own`);
  }
  const heartbeat = named[0] && (await findIntegrationLookup(named[0].id));
  const by = `Opsgenie heartbeat ping through integration ${opsgenie.integrationId}`;
  if (heartbeat?.enabled) {
    const queued = await acceptFor(heartbeat, event, text, text, [by]);
    return answerOf(202, PONG, took(), queued.log_id);
  }
  const why = named[0] ? `Heartbeat integration "${name}" (${named[0].prefixId}) is disabled` : `No heartbeat integration of this account is named "${name}"`;
  const queued = await acceptFor(opsgenie, event, text, text, [why]);
  return answerOf(202, PONG, took(), queued.log_id);
}
