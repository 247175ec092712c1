// Users endpoint group: people seen through the caller's account. Thin transport over lib/people.
// DELETE /users/:id has no row in the route table: the fallback answers 405 (people leave an account through
// DELETE /account_users/:id).
import { created, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { userCreate, userUpdate } from '#lib/people/schema.ts';
import { addPersonAsUser, getUserObject, listUserObjects, updateUser, userCreateRequest } from '#lib/people/service.ts';

export const handler = apiHandler('users', {
  'POST /api/v4/users': async ({ caller, body }) =>
    created(await addPersonAsUser(caller, userCreateRequest(validate(userCreate, body)))),
  'GET /api/v4/users': async ({ caller, query }) => listResponse(await listUserObjects(caller.accountId), query, { searchFields: ['name', 'emails.email'] }),
  'GET /api/v4/users/{id}': async ({ caller, params }) => ok(await getUserObject(caller.accountId, params.id!)),
  // Admins, and any user for their own profile: the service decides (docs/people.md).
  'PUT /api/v4/users/{id}': async ({ caller, params, body }) => ok(await updateUser(caller, params.id!, validate(userUpdate, body))),
});
