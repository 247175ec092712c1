// Escalation policies endpoint group: thin transport over lib/escalation-policies.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { policyCreate, policyUpdate } from '#lib/escalation-policies/schema.ts';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  policyListSource,
  renderPolicyWithTeams,
  updatePolicy,
} from '#lib/escalation-policies/service.ts';

export const handler = apiHandler('escalation_policies', {
  'POST /api/v4/escalation_policies': async ({ caller, body }) =>
    created(await renderPolicyWithTeams(await createPolicy(caller.accountId, validate(policyCreate, body)))),
  'GET /api/v4/escalation_policies': async ({ caller, query }) =>
    listResponse(policyListSource(caller.accountId), query, { searchFields: ['name'] }),
  'GET /api/v4/escalation_policies/{id}': async ({ caller, params }) =>
    ok(await renderPolicyWithTeams(await getPolicy(caller.accountId, params.id!))),
  'PUT /api/v4/escalation_policies/{id}': async ({ caller, params, body }) =>
    ok(await renderPolicyWithTeams(await updatePolicy(caller.accountId, params.id!, validate(policyUpdate, body)))),
  'DELETE /api/v4/escalation_policies/{id}': async ({ caller, params }) => {
    await deletePolicy(caller.accountId, params.id!);
    return noContent();
  },
});
