// Pure rules of broadcasts: what a create request may hold, who a send reaches, on which channels, when the
// deadline fires, whether an answer is taken, and the counts shown. No I/O: test/unit/broadcasts checks them.
// Rules: docs/broadcasts.md.
import type { Channel } from '../rule-engine/index.ts';
import { ERRORED_REASON_LENGTH, MAX_BROADCAST_RECIPIENTS } from '../limits.ts';
import { BROADCAST_CHANNELS, CHANNEL_FLAGS, type BroadcastChannel, type ChannelFlag, type BroadcastCreateInput, type BroadcastData, type ResponseOption, type StoredResponse } from './schema.ts';

/** The flag of each channel a broadcast can select. */
const FLAG_OF: Record<BroadcastChannel, ChannelFlag> = {
  push: 'notify_push',
  email: 'notify_email',
  sms: 'notify_sms',
  slack: 'notify_slack',
  whatsapp: 'notify_whatsapp',
};

/** The 422 messages of a create request's own fields (the ids are checked against storage separately). */
export function createProblems(input: BroadcastCreateInput, now: number): string[] {
  const problems: string[] = [];
  const teams = input.destination_team_ids ?? [];
  const users = input.destination_account_user_ids ?? [];
  if (teams.length + users.length === 0) problems.push('destination_team_ids or destination_account_user_ids must name at least one destination');
  if (input.notify_voice === true) problems.push('notify_voice is not available: broadcasts are never sent by voice call');
  if (input.select_specific_channels === true && !CHANNEL_FLAGS.some((flag) => input[flag] === true)) {
    problems.push(`select_specific_channels needs at least one of ${CHANNEL_FLAGS.join(', ')} set to true`);
  }
  if (input.response_requested === true) {
    const deadline = input.response_requested_by;
    if (deadline === undefined || deadline === null) problems.push('response_requested_by is required when response_requested is true');
    else if (Date.parse(deadline) <= now) problems.push('response_requested_by must be in the future');
    const options = input.broadcast_response_options_attributes ?? [];
    if (options.length === 0) problems.push('broadcast_response_options_attributes must hold at least one option when response_requested is true');
    problems.push(...duplicateOptionProblems(options.map((o) => o.value)));
  }
  return problems;
}

/** One message per option value given more than once, compared ignoring case and surrounding spaces. */
export function duplicateOptionProblems(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  for (const value of values) {
    const key = value.trim().toLocaleLowerCase('en-US');
    if (seen.has(key)) repeated.add(seen.get(key)!);
    else seen.set(key, value.trim());
  }
  return [...repeated].map((value) => `broadcast_response_options_attributes contains the value "${value}" more than once (values are compared ignoring case)`);
}

/** The stored options: ids given here, `position` 1, 2, 3… in the order sent. */
export function responseOptions(values: readonly string[], newOptionId: () => string): ResponseOption[] {
  return values.map((value, index) => ({ id: newOptionId(), value: value.trim(), position: index + 1 }));
}

/** Everyone a send reaches: the account users named, then each team's members and admins; each person once. */
export function recipientsOf(accountUserIds: readonly string[], teams: readonly { member_account_user_ids: readonly string[]; admin_account_user_ids: readonly string[] }[]): string[] {
  const people = new Set<string>(accountUserIds);
  for (const team of teams) {
    for (const id of team.member_account_user_ids) people.add(id);
    for (const id of team.admin_account_user_ids) people.add(id);
  }
  return [...people];
}

export const tooManyRecipients = (count: number): string | undefined =>
  count > MAX_BROADCAST_RECIPIENTS ? `The destinations reach ${count} people; a broadcast reaches at most ${MAX_BROADCAST_RECIPIENTS}` : undefined;

/** With select_specific_channels, exactly the flagged channels; undefined means each person's own choice. */
export function selectedChannels(data: Pick<BroadcastData, 'select_specific_channels' | ChannelFlag>): Channel[] | undefined {
  if (!data.select_specific_channels) return undefined;
  return BROADCAST_CHANNELS.filter((channel) => data[FLAG_OF[channel]]);
}

/** A person's own channels for a broadcast, voice removed: broadcasts never call. */
export const withoutVoice = (channels: readonly Channel[]): Channel[] => channels.filter((channel) => channel !== 'voice');

/** The status a send ends in: nobody reached → errored; reached and no answer wanted → closed; else open. */
export function statusAfterSend(data: Pick<BroadcastData, 'response_requested'>, reached: number): 'open' | 'closed' | 'errored' {
  if (reached === 0) return 'errored';
  return data.response_requested ? 'open' : 'closed';
}

/** A notification record as the errored reason counts it. */
export interface MessageEnd {
  readonly account_user_id: string;
  readonly status: string;
  readonly reason: string | null;
}

/** Whether any message of a broadcast got through or may still: one queued, sent (the provider took it) or delivered. */
export const anyDeliverable = (records: readonly Pick<MessageEnd, 'status'>[]): boolean => records.some((r) => r.status === 'queued' || r.status === 'sent' || r.status === 'delivered');

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why a broadcast that reached nobody is errored: nobody to send to, or how many of its messages ended failed or
 * suppressed for each distinct reason, and how many people had no channel to send on (no record at all). At most
 * ERRORED_REASON_LENGTH characters (cut with `…`); every record keeps its own reason whole.
 */
export function erroredReason(recipients: number, records: readonly MessageEnd[]): string {
  if (recipients === 0) return 'Nobody to send to: the destination teams have no members or admins';
  const groups = new Map<string, { status: string; reason: string | null; count: number }>();
  for (const record of records) {
    const key = JSON.stringify([record.status, record.reason]);
    const group = groups.get(key) ?? { status: record.status, reason: record.reason, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  const parts = [...groups.values()].map((g) => `${plural(g.count, 'message', 'messages')} ${g.status}${g.reason ? ` (${g.reason})` : ''}`);
  const withoutChannel = Math.max(0, recipients - new Set(records.map((r) => r.account_user_id)).size);
  if (withoutChannel > 0) parts.push(`${plural(withoutChannel, 'person', 'people')} with no channel to send on`);
  const whom = recipients === 1 ? 'its one recipient' : `any of its ${recipients} recipients`;
  const text = `No message could be delivered to ${whom}: ${parts.join(', ')}`;
  const characters = [...text];
  return characters.length > ERRORED_REASON_LENGTH ? `${characters.slice(0, ERRORED_REASON_LENGTH - 1).join('')}…` : text;
}

/** When the deadline timer fires: the wait from now to the deadline divided by HARK_TIME_SCALE (at once if past). */
export function deadlineDueAt(deadline: string, now: number, timeScale: number): string {
  const wait = Math.max(0, Date.parse(deadline) - now);
  return new Date(now + (wait === 0 ? 0 : Math.max(1, Math.ceil(wait / timeScale)))).toISOString();
}

/** Why an answer is refused (422), or undefined when it is taken. */
export function answerRefusal(data: Pick<BroadcastData, 'status' | 'response_requested' | 'response_requested_by' | 'broadcast_response_options'>, optionId: string, now: number): string | undefined {
  if (!data.response_requested) return 'This broadcast does not ask for a response';
  if (!data.broadcast_response_options.some((o) => o.id === optionId)) return `broadcast_response_option_id ${optionId} is not an option of this broadcast`;
  if (data.status === 'queued') return 'This broadcast has not been sent yet; answers are taken once it is open';
  if (data.status !== 'open') return `This broadcast is ${data.status}; answers are no longer taken`;
  if (data.response_requested_by !== null && Date.parse(data.response_requested_by) <= now) return 'The deadline of this broadcast (response_requested_by) has passed; answers are no longer taken';
  return undefined;
}

/** Each option's count of answers, from the answers themselves (so they never disagree). */
export function countResponses(options: readonly ResponseOption[], responses: readonly StoredResponse[]): Map<string, number> {
  const counts = new Map(options.map((o) => [o.id, 0]));
  for (const response of responses) {
    const n = counts.get(response.broadcast_response_option_id);
    if (n !== undefined) counts.set(response.broadcast_response_option_id, n + 1);
  }
  return counts;
}
