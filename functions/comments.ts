// Comments endpoint group: thin transport over lib/comments. Any member of the account may comment and read.
import type { ApiRequest } from '#lib/http/context.ts';
import { created, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { getUser } from '#lib/people/user-store.ts';
import { commentCreate, type CommentableType } from '#lib/comments/schema.ts';
import { commentListSource, getComment, listCommentsOf, renderComment } from '#lib/comments/service.ts';
import { createComment, findCommentParent } from '#lib/alerts/comments.ts';

const LIST_OPTIONS = { searchFields: ['body'] };

/** The author as of this request: the person's current name (not cached with the API key). */
const authorOf = async ({ caller }: ApiRequest) => ({ accountUserId: caller.accountUserId, displayName: (await getUser(caller.userId))?.name ?? '' });

/** POST /<parents>/:id/comments: the parent must exist in the caller's account (404 before any 422). */
const commentOn = (type: CommentableType) => async (request: ApiRequest) => {
  const parent = await findCommentParent(request.caller.accountId, type, request.params.id!);
  const input = validate(commentCreate, request.body);
  return created(renderComment(await createComment(request.caller.accountId, await authorOf(request), input, parent)));
};

/** GET /<parents>/:id/comments: 404 for an unknown parent, else that parent's comments through the list engine. */
const commentsOf = (type: CommentableType) => async ({ caller, params, query }: ApiRequest) => {
  const parent = await findCommentParent(caller.accountId, type, params.id!);
  return listResponse((await listCommentsOf(caller.accountId, parent)).map(renderComment), query, LIST_OPTIONS);
};

export const handler = apiHandler('comments', {
  'POST /api/v4/comments': async (request) =>
    created(renderComment(await createComment(request.caller.accountId, await authorOf(request), validate(commentCreate, request.body), undefined))),
  'GET /api/v4/comments': async ({ caller, query }) => listResponse(commentListSource(caller.accountId), query, LIST_OPTIONS),
  'GET /api/v4/comments/{id}': async ({ caller, params }) => ok(renderComment(await getComment(caller.accountId, params.id!))),
  'POST /api/v4/comments/{id}/comments': commentOn('Comment'),
  'GET /api/v4/comments/{id}/comments': commentsOf('Comment'),
  'POST /api/v4/alerts/{id}/comments': commentOn('Alert'),
  'GET /api/v4/alerts/{id}/comments': commentsOf('Alert'),
  'POST /api/v4/broadcasts/{id}/comments': commentOn('Broadcast'),
  'GET /api/v4/broadcasts/{id}/comments': commentsOf('Broadcast'),
});
