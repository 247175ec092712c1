// The reader contract for monitor types (docs/ingest.md, "Readers"): one reader per integration type
// turns a request into alert-level events. Readers are pure; applying their events is the applier's (lib/ingest/apply.ts).
import type { ZodType } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';

export interface AdditionalDatumReading {
  /** Readers of monitors that send links (a console, a dashboard) give them as `link`. */
  format: 'text' | 'link';
  label: string;
  value: string;
}

/** The alert fields a payload carries, in the alert API's names. Absent = the payload did not set it. */
export interface ReadFields {
  title?: string;
  description?: string | null;
  urgency?: Urgency;
  tag_list?: string[];
  meta?: Record<string, unknown>;
  dedup_keys?: string[];
  additional_data?: AdditionalDatumReading[];
  /** `comment`: the text of the note to put on the alert's timeline; `create`: a note that follows the alert. */
  comment?: string;
  /** `create`: whom the sender asked to page; the applier resolves them to destinations (lib/ingest/responders.ts). */
  responders?: ResponderReading[];
}

/** One responder a sender names (Opsgenie's `responders[]`): by id or name (a user by username, its email). */
export interface ResponderReading {
  type: 'team' | 'user' | 'escalation' | 'schedule';
  id?: string;
  name?: string;
}

export interface ReaderRequest {
  /** 'POST' usually; a heartbeat may be pinged with GET. */
  method: string;
  /** Names lower-cased. */
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The parsed JSON when the body parses as JSON (whatever the Content-Type), else the raw text. */
  body: unknown;
  rawBody: string;
  /** The path as sent (`/v2/change/enqueue`), for a type whose routes mean different things; absent for older messages. */
  path?: string;
}

/** One alert-level event a request produced. */
export interface ReadEvent {
  /**
   * `comment` puts `fields.comment` on the alert's timeline; `tag` adds `fields.tag_list` to the alert's tags and
   * `untag` removes them (Opsgenie's notes and tags calls); the others as the generic webhook's.
   */
  event: 'create' | 'update' | 'acknowledge' | 'resolve' | 'comment' | 'tag' | 'untag';
  /**
   * Set when the sender names the alert by Hark's own id or tiny id (Opsgenie's identifierType=id|tiny) rather than by
   * its key; the event then acts on that alert if this integration made it, and `thirdpartyId` is only for the log.
   */
  alertRef?: { by: 'id' | 'tiny'; value: string };
  /** The key of the alert (the generic webhook's Id, CloudWatch's AlarmArn, ...). */
  thirdpartyId: string;
  /** True when the reader had to make the key (generateId). */
  idGenerated: boolean;
  /** The alert fields in the alert API's names. */
  fields: ReadFields;
  /** What the reader noticed about this event, for the request's log. */
  notes: string[];
}

export interface Reading {
  /** In the order they must be applied; empty = nothing to do. */
  events: ReadEvent[];
  /** Set when events is empty: why (shown in GET /logs). */
  ignoredReason?: string;
  /** Request-level notes for the log. */
  notes: string[];
}

export interface ReaderOptions {
  /** The integration's type-specific options, already validated by the reader's schema. */
  options: Record<string, unknown>;
  wrapperKey: string | null;
  captureAdditionalData: boolean;
  defaultUrgency: Urgency;
  /** Derived from the request id, so a redelivered request reads the same keys. */
  generateId: (index: number) => string;
}

/** What the intake knows of an accepted request, for a type's intake step (lib/ingest/intake-steps.ts). */
export interface IntakeContext {
  accountId: string;
  integrationId: string;
  /** The request's id as queued (after `requestKey`). */
  requestId: string;
  receivedAt: string;
  /** The integration's type-specific options, validated by the reader's schema. */
  options: Record<string, unknown>;
}

/**
 * A type's check of a request at intake. A refusal's `refusal` is a short constant naming why (`invalid_signature`,
 * `topic_not_allowed`): the integration keeps one refused log a minute per name (docs/ingest.md, "Refused requests").
 */
export type VerifyVerdict = { ok: true } | { ok: false; status: 403 | 400; reason: string; refusal: string };

export interface IntegrationReader {
  /** 'webhook', 'prometheus', 'aws_cloudwatch', ... */
  id: string;
  name: string;
  description: string;
  /** The docs/monitors.md anchor, e.g. 'docs/monitors.md#prometheus-alertmanager'. */
  docs: string;
  /** Zod schema of the type's options (an empty object schema if none). */
  options: ZodType;
  /**
   * Optional: the type's senders authenticate with a key Hark generates (in the body or a header, not the path), kept
   * in the integration's options under `option`, shown to admins and rotatable (docs/integrations.md, "Sender keys").
   * The key is never one of the options the reader's schema takes: no one but Hark sets it.
   */
  senderKey?: {
    option: string;
    /** Optional: the path at the service's root its senders post to with the key (`/v2/enqueue`), shown to admins. */
    url?: string;
  };
  /**
   * Optional, run at intake BEFORE queueing (signatures); a refusal changes nothing, answers the status with the
   * JSON error body, and is logged.
   */
  verify?(request: ReaderRequest, options: Record<string, unknown>): Promise<VerifyVerdict>;
  /**
   * Optional: the HTTP methods the type takes besides POST (a heartbeat is pinged with GET too), and whether a body
   * that is not a JSON object is taken (as raw text) instead of answered 400.
   */
  methods?: readonly ('GET' | 'POST')[];
  anyBody?: boolean;
  /**
   * Optional, pure: the request's id from the sender's own message id (SNS's MessageId), so the sender's retries of one
   * message are one request (the queue drops the repeat, the worker applies it once). Undefined: the gateway's id.
   */
  requestKey?(request: ReaderRequest): string | undefined;
  /** PURE: no storage, no clock, no network. */
  read(request: ReaderRequest, options: ReaderOptions): Reading;
}
