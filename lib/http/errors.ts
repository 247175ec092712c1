// Failures only a transport can have (a malformed body, a method the path does not serve, a body over the
// limit), rendered as {"errors":[{"message":...}],"code":status}. Domain failures are DomainErrors
// (lib/errors.ts); lib/http/responses.ts maps their kinds to statuses. The domain factories are re-exported
// here for transport code (handlers, the handler factory), which may raise both.

export { conflict, forbidden, invalid as unprocessable, notFound, unauthenticated as unauthorized } from '../errors.ts';

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
export const methodNotAllowed = (allowed: readonly string[], message = 'Operation not supported') =>
  new HttpError(405, message, { allow: allowed.join(', ') });
export const payloadTooLarge = (limitBytes: number) => new HttpError(413, `Request body is larger than ${limitBytes} bytes`);

export function errorBody(status: number, messages: readonly string[]) {
  return { errors: messages.map((message) => ({ message })), code: status };
}
