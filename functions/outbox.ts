// Outbox endpoint group: messages queued for delivery, readable by admins only (they name people and addresses).
import type { Caller } from '#lib/http/context.ts';
import { ok } from '#lib/http/context.ts';
import { forbidden } from '#lib/http/errors.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { getOutboxMessage, outboxListSource, renderOutbox } from '#lib/outbox/outbox.ts';

function requireAdminReader(caller: Caller): void {
  if (!caller.roles.admin) throw forbidden('Only account admins can read the outbox');
}

export const handler = apiHandler('outbox', {
  'GET /api/v4/outbox': async ({ caller, query }) => {
    requireAdminReader(caller);
    return listResponse(outboxListSource(caller.accountId), query, { searchFields: ['subject', 'to'] });
  },
  'GET /api/v4/outbox/{id}': async ({ caller, params }) => {
    requireAdminReader(caller);
    return ok(renderOutbox(await getOutboxMessage(caller.accountId, params.id!)));
  },
});
