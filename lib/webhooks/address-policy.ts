// Where this deployment may send webhooks, for the API's checks and the worker's sends alike; kept apart from the
// worker so the API's handlers do not load the sending code.
import { config } from '../config.ts';
import type { AddressPolicy } from './address.ts';

/** Loopback only in the local runtime; the allow-list everywhere. */
export const addressPolicy = (): AddressPolicy => ({ allowLoopback: config().dynamoEndpoint !== undefined, allowed: config().webhookAllowedHosts });
