// Account users endpoint group: memberships of people in the caller's account. Thin transport over lib/people.
import { rotatePersonFeed } from '#lib/calendar-feed/rotate.ts';
import { created, noContent, ok, requestBase } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { pushSubscription } from '#lib/delivery/subscriptions.ts';
import { accountUserCreate, accountUserUpdate } from '#lib/people/schema.ts';
import {
  accountUserCreateRequest,
  addPersonAsAccountUser,
  getAccountUserObject,
  listAccountUserObjects,
  removeAccountUser,
  updateAccountUser,
} from '#lib/people/service.ts';

export const handler = apiHandler('account_users', {
  'POST /api/v4/account_users': async ({ caller, body }) =>
    created(await addPersonAsAccountUser(caller, accountUserCreateRequest(validate(accountUserCreate, body)))),
  'GET /api/v4/account_users': async ({ caller, query }) =>
    listResponse(await listAccountUserObjects(caller.accountId), query, { searchFields: ['user.name', 'user.emails.email'] }),
  'GET /api/v4/account_users/{id}': async ({ caller, params }) => ok(await getAccountUserObject(caller.accountId, params.id!)),
  'PUT /api/v4/account_users/{id}': async ({ caller, params, body }) =>
    ok(await updateAccountUser(caller, params.id!, validate(accountUserUpdate, body))),
  'GET /api/v4/account_users/{id}/push': async ({ caller, params }) => ok(await pushSubscription(caller, params.id!)),
  'POST /api/v4/account_users/{id}/ical_token': async ({ caller, params, event }) => ok(await rotatePersonFeed(caller, params.id!, requestBase(event))),
  'DELETE /api/v4/account_users/{id}': async ({ caller, params }) => {
    await removeAccountUser(caller, params.id!);
    return noContent();
  },
});
