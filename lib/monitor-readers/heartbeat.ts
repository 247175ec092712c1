// Heartbeats: any request to the integration's URL (GET or POST, any body) is a ping; a durable timer pages when
// the next ping is late (docs/monitors.md, "Heartbeat"). The ping arms the timer at intake (lib/ingest/heartbeat/
// on-ping.ts, an intake step); the missed beat comes back as a request of method HEARTBEAT_MISSED
// (lib/ingest/heartbeat/missed.ts), which no client can send.
import { z } from 'zod';
import { HEARTBEAT_MAX_GRACE_SECONDS, HEARTBEAT_MAX_INTERVAL_SECONDS, HEARTBEAT_MIN_INTERVAL_SECONDS, NAME_LENGTH } from '../limits.ts';
import { HEARTBEAT_ALERT_KEY, MISSED_METHOD } from './heartbeat-names.ts';
import { isJsonObject } from './wrapper-key.ts';
import { cutText } from './fields.ts';
import type { IntegrationReader, ReaderRequest, Reading } from './types.ts';

export const DEFAULT_HEARTBEAT_INTERVAL_SECONDS = 3600;
export const DEFAULT_HEARTBEAT_GRACE_SECONDS = 300;

const seconds = (min: number, max: number, what: string) =>
  z
    .number({ error: `must be a whole number of seconds (${what})` })
    .int(`must be a whole number of seconds (${what})`)
    .min(min, `must be at least ${min} seconds`)
    .max(max, `must be at most ${max} seconds`);

export const heartbeatOptions = z
  .object({
    interval_seconds: seconds(HEARTBEAT_MIN_INTERVAL_SECONDS, HEARTBEAT_MAX_INTERVAL_SECONDS, `${HEARTBEAT_MIN_INTERVAL_SECONDS} to ${HEARTBEAT_MAX_INTERVAL_SECONDS}`).default(
      DEFAULT_HEARTBEAT_INTERVAL_SECONDS,
    ),
    grace_seconds: seconds(0, HEARTBEAT_MAX_GRACE_SECONDS, `0 to ${HEARTBEAT_MAX_GRACE_SECONDS}`).default(DEFAULT_HEARTBEAT_GRACE_SECONDS),
  })
  .strict();
export type HeartbeatOptions = z.output<typeof heartbeatOptions>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A missed beat creates the integration's heartbeat alert; anything else is a ping, which resolves it. */
export function readHeartbeat(request: ReaderRequest, options: { options: Record<string, unknown> }): Reading {
  const timing = heartbeatOptions.parse(options.options);
  if (request.method === MISSED_METHOD) {
    const body = isJsonObject(request.body) ? request.body : {};
    const name = text(body.integration_name) ?? 'Heartbeat';
    const lastPing = text(body.last_ping_at);
    const due = text(body.due_at);
    const description = [
      lastPing ? `No ping since ${lastPing}.` : 'No ping received.',
      `Expected every ${timing.interval_seconds} s with ${timing.grace_seconds} s of grace${due ? `; due by ${due}` : ''}.`,
      'The next ping resolves this alert.',
    ].join(' ');
    return {
      events: [
        {
          event: 'create',
          thirdpartyId: HEARTBEAT_ALERT_KEY,
          idGenerated: false,
          fields: { title: cutText(`${name} missed its heartbeat`, NAME_LENGTH), description, meta: { last_ping_at: lastPing ?? null, due_at: due ?? null } },
          notes: [`Missed heartbeat: ${lastPing ? `last ping at ${lastPing}` : 'no ping yet'}`],
        },
      ],
      notes: [],
    };
  }
  return { events: [{ event: 'resolve', thirdpartyId: HEARTBEAT_ALERT_KEY, idGenerated: false, fields: {}, notes: [`Heartbeat ping (${request.method}): resolves the missed-heartbeat alert if one is open`] }], notes: [] };
}

export const heartbeatReader: IntegrationReader = {
  id: 'heartbeat',
  name: 'Heartbeat',
  description: 'Pages when a job or host stops checking in: any GET or POST to the integration’s URL is a ping; no ping within the interval and grace creates an alert, the next ping resolves it.',
  docs: 'docs/monitors.md#heartbeat',
  options: heartbeatOptions,
  methods: ['GET', 'POST'],
  anyBody: true,
  read: readHeartbeat,
};
