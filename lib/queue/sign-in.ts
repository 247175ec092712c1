// Sign-in requests on the deployment's timers queue (docs/console.md, "Sign-in"): POST /sign-in puts one message
// per request, whatever the address, and answers; the timers worker looks the address up and sends the link. The
// message holds the address asked for, never a link or a token; it belongs to no account.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { sqsClient } from './client.ts';
import { timersQueueUrl } from './timers.ts';

export const SIGN_IN_REQUEST_KIND = 'sign_in';

export const signInRequestSchema = z.object({
  kind: z.literal(SIGN_IN_REQUEST_KIND),
  /** Unique per request: the worker takes each once, so a redelivered message sends no second mail. */
  requestId: z.string().min(1).max(64),
  /** The address as asked for, lower case. */
  email: z.string().min(1).max(254),
  /** Where to go after signing in (a same-site path, checked before it is queued). */
  next: z.string().min(1).max(2048),
  /** The base URL the link starts with. */
  baseUrl: z.string().min(1).max(2048),
  requestedAt: z.number(),
});
export type SignInRequestMessage = z.infer<typeof signInRequestSchema>;

/** Queues one sign-in request. Throws when SQS refuses it. */
export async function sendSignInRequest(message: SignInRequestMessage): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: timersQueueUrl(), MessageBody: JSON.stringify(message) }));
}
