// The ALERT resource: request schemas, the stored data shape (API names, snake_case) and the pure rules that
// turn a request into stored data. Fields and choices: docs/alerts.md, "The alert resource".
import { z } from 'zod';
import type { AlertStatus } from '../escalation-engine/index.ts';
import { idList, metaSchema, optionalText, requiredText } from '../api-shapes/schemas.ts';
import { MAX_ADDITIONAL_DATA_BYTES, MAX_ALERT_KEY_LENGTH, MAX_DESTINATIONS, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { jsonBytes } from '../storable.ts';
import { INCIDENT_SEVERITIES, URGENCIES } from '../rule-engine/index.ts';
import { thirdpartyIdOf } from '../api-shapes/thirdparty-id.ts';

/** Who creates or acts on an alert through the API. */
export interface AlertActor {
  accountId: string;
  accountUserId: string;
}

export const ALERT_URGENCIES = URGENCIES;
export type AlertUrgency = (typeof URGENCIES)[number];

const urgency = z.enum(URGENCIES, { error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${URGENCIES.join(', ')}`) });
const tagList = z.array(requiredText(), { error: 'must be a list of strings' }).max(MAX_DESTINATIONS, `must hold at most ${MAX_DESTINATIONS} tags`);
const destinationIds = idList.max(MAX_DESTINATIONS, `must hold at most ${MAX_DESTINATIONS} ids`);

/** meta: any object; the incident keys are checked (docs/alerts.md, "Incidents"). */
const alertMeta = metaSchema.superRefine((meta, ctx) => {
  if (meta === undefined) return;
  if (meta.incident !== undefined && typeof meta.incident !== 'boolean') {
    ctx.addIssue({ code: 'custom', path: ['incident'], message: 'must be true or false' });
  }
  const severity = meta.incident_severity;
  if (severity !== undefined && severity !== null && !(INCIDENT_SEVERITIES as readonly unknown[]).includes(severity)) {
    ctx.addIssue({ code: 'custom', path: ['incident_severity'], message: `must be one of ${INCIDENT_SEVERITIES.join(', ')}` });
  }
  if (meta.incident === true && (severity === undefined || severity === null)) {
    ctx.addIssue({ code: 'custom', path: ['incident_severity'], message: `is required when meta.incident is true: one of ${INCIDENT_SEVERITIES.join(', ')}` });
  }
  const message = meta.incident_message;
  if (message !== undefined && message !== null && typeof message !== 'string') {
    ctx.addIssue({ code: 'custom', path: ['incident_message'], message: 'must be a string' });
  }
});

const additionalData = z
  .array(
    z.object({
      format: z.enum(['text', 'link', 'img', 'email', 'phone', 'datetime'], { error: 'must be one of text, link, img, email, phone, datetime' }),
      label: requiredText(),
      value: z.string({ error: 'must be a string' }).max(TEXT_LENGTH, `is longer than ${TEXT_LENGTH} characters`),
    }),
    { error: 'must be a list of {format, label, value}' },
  )
  .max(MAX_DESTINATIONS, `must hold at most ${MAX_DESTINATIONS} entries`)
  // With the other bounded fields, keeps the alert item (and the events that copy it) below DynamoDB's 400 KB.
  .refine((data) => jsonBytes(data) <= MAX_ADDITIONAL_DATA_BYTES, `is larger than ${MAX_ADDITIONAL_DATA_BYTES} bytes as JSON`);

const editable = {
  title: requiredText(NAME_LENGTH),
  description: optionalText(TEXT_LENGTH),
  urgency,
  tags: tagList.optional(),
  tag_list: tagList.optional(),
  meta: alertMeta,
  dedup_keys: tagList.optional(),
  additional_data: additionalData.optional(),
};

/**
 * The external identity a create may name, read as a webhook's Id is (trimmed; a number as its text; blank or null is
 * none) and refused past the webhook's length limit: 422 here, where the webhook can only ignore the request.
 */
const thirdpartyId = z
  .preprocess(
    (value) => (typeof value === 'string' || typeof value === 'number' ? (thirdpartyIdOf(value) ?? null) : value),
    z.string({ error: 'must be a string' }).max(MAX_ALERT_KEY_LENGTH, `is longer than ${MAX_ALERT_KEY_LENGTH} characters`).nullable(),
  )
  .optional();

/** POST /alerts. Unknown parameters are ignored (a client may send read-only fields back), and named in a Warning. */
export const alertCreate = z.object({
  ...editable,
  thirdparty_id: thirdpartyId,
  destination_team_ids: destinationIds.optional(),
  destination_router_ids: destinationIds.optional(),
  destination_account_user_ids: destinationIds.optional(),
});
export type AlertCreateInput = z.output<typeof alertCreate>;

/** PUT /alerts/:id: the editable fields, each optional; status changes only through the actions. */
export const alertUpdate = z.object({
  title: editable.title.optional(),
  description: editable.description,
  urgency: urgency.optional(),
  tags: editable.tags,
  tag_list: editable.tag_list,
  meta: editable.meta,
  dedup_keys: editable.dedup_keys,
  additional_data: editable.additional_data,
});
export type AlertUpdateInput = z.output<typeof alertUpdate>;

export interface AdditionalDatum {
  format: 'text' | 'link' | 'img' | 'email' | 'phone' | 'datetime';
  label: string;
  value: string;
}

/** Stored fields of an ALERT, exactly as the API shows them (common attributes come from the item). */
export interface AlertData {
  title: string;
  description: string | null;
  urgency: AlertUrgency;
  status: AlertStatus;
  tag_list: string[];
  source_type: 'AccountUser' | 'Integration';
  source_id: string;
  source_log_id: string | null;
  thirdparty_id: string | null;
  acknowledged_at: string | null;
  resolved_at: string | null;
  dedup_keys: string[];
  dedup_count: number;
  additional_data: AdditionalDatum[];
  parent_id: string | null;
  destination_team_ids: string[];
  destination_router_ids: string[];
  destination_account_user_ids: string[];
  /** Stakeholders recorded by routers' `stakeholder` actions. */
  stakeholder_ids: string[];
}

/** `tags` and `tag_list` both name the tags; `tags` wins when both are sent. Repeats are dropped, order kept. */
export const tagsOf = (input: { tags?: string[] | undefined; tag_list?: string[] | undefined }): string[] | undefined => {
  const tags = input.tags ?? input.tag_list;
  return tags === undefined ? undefined : [...new Set(tags)];
};

/** The one 422 of a create that names no destination at all. */
export const NO_DESTINATION = 'destination_team_ids, destination_router_ids or destination_account_user_ids must name at least one destination';

export const hasDestination = (input: Pick<AlertCreateInput, 'destination_team_ids' | 'destination_router_ids' | 'destination_account_user_ids'>): boolean =>
  (input.destination_team_ids?.length ?? 0) + (input.destination_router_ids?.length ?? 0) + (input.destination_account_user_ids?.length ?? 0) > 0;
