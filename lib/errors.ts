// The failures storage and domain code raise, named by what went wrong, not by how a transport answers it.
// The HTTP error renderer (lib/http/responses.ts) is the one place that turns a kind into a status; the
// layering rule is in docs/architecture.md.

export const ERROR_KINDS = ['invalid', 'limit_exceeded', 'not_found', 'conflict', 'forbidden', 'unauthenticated', 'unavailable'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** One message per problem; each names the field or object it is about. */
  readonly messages: readonly string[];
  /**
   * A conditional write lost a race with a concurrent change and wrote nothing: reading again and repeating the
   * change may succeed (lib/db/retry.ts does).
   */
  readonly lostRace: boolean;

  constructor(kind: ErrorKind, messages: string | readonly string[], options: { lostRace?: boolean } = {}) {
    const list = typeof messages === 'string' ? [messages] : messages;
    super(list.join('; '));
    this.name = 'DomainError';
    this.kind = kind;
    this.messages = list;
    this.lostRace = options.lostRace ?? false;
  }
}

/** The input breaks a rule; one message per problem, each naming the field. */
export const invalid = (messages: string | readonly string[]) => new DomainError('invalid', messages);
/** The change would exceed a limit (a collection cap, a count per request). */
export const limitExceeded = (message: string) => new DomainError('limit_exceeded', message);
export const notFound = (what = 'Resource') => new DomainError('not_found', `${what} not found`);
/** The change contradicts the current state (a reference, the last admin, a duplicate). */
export const conflict = (messages: string | readonly string[]) => new DomainError('conflict', messages);
/** A concurrent writer got there first; nothing was written and a retry may succeed. */
export const lostRace = (message: string) => new DomainError('conflict', message, { lostRace: true });
export const forbidden = (message = 'Your role does not allow this operation') => new DomainError('forbidden', message);
export const unauthenticated = (message = 'Invalid or missing API key') => new DomainError('unauthenticated', message);
/** Storage or a queue failed for a while (throttled, a failing node); nothing was changed and the same request may succeed later. */
export const unavailable = (message = 'The service is briefly unavailable; retry later') => new DomainError('unavailable', message);

export const isDomainError = (error: unknown, kind?: ErrorKind): error is DomainError =>
  error instanceof DomainError && (kind === undefined || error.kind === kind);
