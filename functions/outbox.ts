// Outbox endpoint group: messages queued for delivery. Its rows are admin-only (they name people and
// addresses); the handler factory enforces that from the route table.
import { ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { getOutboxMessage, outboxListSource } from '#lib/outbox/messages.ts';
import { renderOutbox } from '#lib/outbox/outbox.ts';

export const handler = apiHandler('outbox', {
  'GET /api/v4/outbox': async ({ caller, query }) => listResponse(outboxListSource(caller.accountId, renderOutbox), query, { searchFields: ['subject', 'to'] }),
  'GET /api/v4/outbox/{id}': async ({ caller, params }) => ok(renderOutbox(await getOutboxMessage(caller.accountId, params.id!))),
});
