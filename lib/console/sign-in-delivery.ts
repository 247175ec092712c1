// The worker's side of a sign-in request (docs/console.md, "Sign-in"): the timers queue hands it the address asked
// for; a person who has joined at least one account gets a new link, by email through the configured provider (SMTP
// or SES) and, under npm start, as one line in the terminal. The link goes to the person only: never to an account's
// outbox, inbox, notification records or logs (the local inbox is not a mail provider for it).
import { deleteItem, putIfAbsent } from '../db/items.ts';
import { signInRequestKey } from '../db/keys.ts';
import { ADAPTER_SERVICES } from '../delivery/adapter-services.ts';
import { adapterFor } from '../channel-adapters/adapters.ts';
import { newId } from '../ids.ts';
import { SIGN_IN_LINK_MINUTES } from '../limits.ts';
import { logger } from '../logger.ts';
import { findUserByEmail } from '../people/user-store.ts';
import { signInRequestSchema } from '../queue/sign-in.ts';
import { accountsOf } from './person-accounts.ts';
import { issueSignInLink } from './sign-in.ts';

/** The mail of a sign-in link. Pure. */
export function signInMail(link: string, name: string): { subject: string; text: string } {
  return {
    subject: 'Your Hark sign-in link',
    text: [
      `Hello ${name},`,
      '',
      `Open this link to sign in to Hark: ${link}`,
      '',
      `It works once, within ${SIGN_IN_LINK_MINUTES} minutes. If you did not ask to sign in, ignore this mail: nothing happens without the link.`,
    ].join('\n'),
  };
}

/** The terminal line of a link under npm start. Pure. */
export const signInTerminalLine = (email: string, link: string): string => `Sign-in link for ${email}: ${link} (works once, within ${SIGN_IN_LINK_MINUTES} minutes)`;

let terminal: ((line: string) => void) | undefined;

/**
 * npm start only: every sign-in link is also printed through `write`, one line each (the terminal's operator owns
 * the data folder and is trusted: docs/security.md). Undefined stops it.
 */
export function printSignInLinksTo(write: ((line: string) => void) | undefined): void {
  terminal = write;
}

/** Whether this thread prints sign-in links (npm start's gateway thread does; its function threads then forward theirs). */
export const printsSignInLinks = (): boolean => terminal !== undefined;

/** Prints a line a function thread forwarded (lib/local/threads.ts), where this thread prints its own. */
export const printSignInLine = (line: string): void => terminal?.(line);

/** Why a request sent no link; the log line says which, never the address or the link. */
export type SignInDelivery = 'sent' | 'printed' | 'no_joined_account' | 'no_provider' | 'already_taken';

/** A request is taken once for an hour: long after SQS would redeliver it. */
const TAKEN_SECONDS = 3600;

/**
 * Handles one queued sign-in request. Throws for a failure worth a retry (the provider was unreachable); a retry
 * issues a new link, the earlier one simply expires unused.
 */
export async function deliverSignInRequest(body: string, now: number): Promise<SignInDelivery> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const parsed = signInRequestSchema.safeParse(json);
  // Only Hark writes these messages: one that does not fit is a fault, retried and then parked in the dead-letter queue.
  if (!parsed.success) throw new Error('Sign-in request does not fit its schema');
  const { requestId, email, next, baseUrl } = parsed.data;
  // Taken once: SQS may deliver a message twice, and a person should get one link per request.
  const taken = signInRequestKey(requestId);
  const takenItem = { ...taken, type: 'SIGNINREQ', ttl: Math.ceil(now / 1000) + TAKEN_SECONDS };
  if (!(await putIfAbsent(takenItem))) return outcome('already_taken');
  const person = await findUserByEmail(email);
  // Only an account the person has joined can be signed in to: an invitation alone sends nothing.
  const joined = person ? (await accountsOf(person.id)).some((a) => a.joined) : false;
  if (!person || !joined) return outcome('no_joined_account');
  const link = await issueSignInLink(person.id, email, baseUrl, now, next);
  if (terminal) terminal(signInTerminalLine(email, link));
  const adapter = adapterFor('email', ADAPTER_SERVICES);
  // The local inbox serves email when nothing else does, but it is an account's page: never for a sign-in link.
  if (!adapter || adapter.provider === 'local') return outcome(terminal ? 'printed' : 'no_provider');
  const mail = signInMail(link, person.name);
  const id = newId();
  const result = await adapter.send({
    notificationId: id,
    // The mail belongs to no account: the adapter only needs an address and a unique id.
    accountId: '',
    accountUserId: '',
    channel: 'email',
    to: email,
    subject: mail.subject,
    text: mail.text,
    actions: [],
    about: { ownerType: 'alert', ownerId: '', prefixId: '' },
  });
  if (result.status === 'failed' && result.retryable) {
    // Given back, so the retry sends it (with a new link: this one expires unused).
    await deleteItem(taken);
    throw new Error(`Sign-in mail not sent, retried: ${result.error}`);
  }
  if (result.status !== 'sent') {
    logger.warn('Sign-in link not sent', { event: 'sign_in_link', outcome: result.status, reason: result.status === 'failed' ? result.error : result.reason });
    return terminal ? 'printed' : 'no_provider';
  }
  return outcome('sent');
}

function outcome(what: SignInDelivery): SignInDelivery {
  if (what === 'no_provider') logger.warn('Sign-in link not sent: no email provider is configured', { event: 'sign_in_link', outcome: what });
  else logger.info('Sign-in request handled', { event: 'sign_in_link', outcome: what });
  return what;
}
