// Failures the transport itself decides (a malformed body or query string, a path that cannot name an object,
// a method the path does not serve, a body over the limit, the role a route needs), rendered as
// {"errors":[{"message":...}],"code":status}. Storage and domain code raise DomainErrors (lib/errors.ts)
// instead; lib/http/responses.ts maps their kinds to statuses (docs/architecture.md, "Layers and the import rule").

export class HttpError extends Error {
  readonly status: number;
  readonly messages: readonly string[];
  readonly headers: Record<string, string>;

  constructor(status: number, messages: string | readonly string[], headers: Record<string, string> = {}) {
    const list = typeof messages === 'string' ? [messages] : messages;
    super(list.join('; '));
    this.name = 'HttpError';
    this.status = status;
    this.messages = list;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Invalid or missing API key') => new HttpError(401, message);
export const forbidden = (message = 'Your role does not allow this operation') => new HttpError(403, message);
export const notFound = (what = 'Resource') => new HttpError(404, `${what} not found`);
export const methodNotAllowed = (allowed: readonly string[], message = 'Operation not supported') =>
  new HttpError(405, message, { allow: allowed.join(', ') });
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (limitBytes: number) => new HttpError(413, `Request body is larger than ${limitBytes} bytes`);
/** 422: one message per problem, each naming the field. */
export const unprocessable = (messages: string | readonly string[]) => new HttpError(422, messages);

export function errorBody(status: number, messages: readonly string[]) {
  return { errors: messages.map((message) => ({ message })), code: status };
}
