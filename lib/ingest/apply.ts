// The applier: applies one accepted webhook request to alerts in three plain steps (docs/ingest.md, "Applying a request"):
// the integration's reader reads the request into events (pure, lib/ingest/readers/), each event in order is decided
// from the alerts as read (pure, decide.ts) and committed with its notes on the request's log (commit.ts). Each event
// marks its own step on the log in the transaction of its change, so a request delivered twice, or cut short by a crash
// and delivered again, applies every event exactly once (docs/ingest.md, "Exactly-once effects").
import type { AlertItem } from '../alerts/items.ts';
import { alertPage, findAlert, newestAlertOfIdentity, takesIdentityEvents } from '../alerts/store.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { type EntityItem } from '../db/repository.ts';
import { cachedEntity } from '../db/config-reads.ts';
import { isDomainError } from '../errors.ts';
import { typeOptionsOf, type IntegrationData } from '../integrations/schema.ts';
import { activeMaintenanceWindow } from '../maintenance/service.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { commitDecision, commitIgnore, type ApplyOutcome, type EventTarget } from './commit.ts';
import { decideEvent, readNotesOf, requestIgnored, type EventState } from './decide.ts';
import { readerOf } from '../monitor-readers/index.ts';
import type { IntegrationReader, ReadEvent, Reading, ReaderRequest } from '../monitor-readers/types.ts';
import { alertIdOfRequest, generatedThirdpartyId } from './request-ids.ts';
import { resolveResponders } from './responders.ts';
import { TINY_ID_SEARCH } from '../limits.ts';
import { stopIfLogKept } from './mark.ts';
import { findSourceLogItem, logIdsOf } from './source-log.ts';


/** The step whose notes mark a request's first event applied; event i > 0 marks `apply#i`. */
export const APPLY_STEP = 'apply';
/** The step marking the request done: its last event applied, or the whole request ignored. */
export const APPLIED_STEP = 'applied';
export const stepOf = (index: number) => (index === 0 ? APPLY_STEP : `${APPLY_STEP}#${index}`);

/** The integration type a request is read by: integrations stored before types had readers are `webhook`. */
export const integrationTypeIdOf = (data: Pick<IntegrationData, 'integration_type'>): string => data.integration_type?.id ?? 'webhook';

/** Finds the reader of a type id; the worker's is the list of lib/monitor-readers/index.ts, a test may pass its own. */
export type ReaderLookup = (typeId: string) => IntegrationReader | undefined;

/** Decisions that lost a race (the alert changed between read and write) are taken again, this many times in all. */
const DECIDE_ATTEMPTS = 5;

type LogRef = EventTarget['logRef'];

/** The steps already on the request's log (an earlier delivery's). */
async function stepsDone(logRef: LogRef): Promise<ReadonlySet<string>> {
  return (await findSourceLogItem(logRef.accountId, logRef.logId))?.noteSteps ?? new Set();
}

/**
 * Where the request's log stands when applying starts: `new` — not stored yet, a first delivery whose first write
 * stores it with the first event's change; `fresh` — this delivery just stored it; `redelivered` — it was there.
 * Only a redelivered request can have steps done already.
 */
export type LogState = 'new' | 'fresh' | 'redelivered';

/** Applies the request; one outcome per event (one for a request ignored as a whole). */
export async function applyWebhookRequest(message: IngestMessage, log: LogState, readers: ReaderLookup = readerOf): Promise<ApplyOutcome[]> {
  const logRef = { accountId: message.accountId, logId: logIdsOf(message).id };
  const fresh = log !== 'redelivered';
  const done = fresh ? new Set<string>() : await stepsDone(logRef);
  if (done.has(APPLIED_STEP)) return [{ result: 'already-applied' }];
  // Both reads at once. The window is judged at the request's acceptance, so a redelivery or a backlog decides as the
  // first try would.
  const reads = Promise.all([
    cachedEntity<IntegrationData>('INTEGRATION', message.accountId, message.integrationId),
    activeMaintenanceWindow(message.accountId, message.integrationId, Date.parse(message.receivedAt)),
  ]);
  const ahead = (await answeredAtOnce(reads)) ? undefined : lookAhead(message);
  const [integration, window] = await reads;
  const reading = integration && !window ? readRequest(message, integration, readers) : undefined;
  const ignored = requestIgnored(integration, window, reading);
  if (ignored || !integration || !reading) {
    // The notes go under the first step not yet marked (a crash may have cut short an earlier delivery), with the last.
    let first = 0;
    while (done.has(stepOf(first))) first++;
    const outcome = await commitIgnore({ message, logRef, steps: [stepOf(first), APPLIED_STEP], logKept: log !== 'new' }, ignored ?? []);
    return [{ ...outcome, ...(integration ? { integration } : {}) }];
  }

  const outcomes: ApplyOutcome[] = [];
  // After the first event's write, the log is stored whatever the state it started in.
  let logKept = log !== 'new';
  for (let index = 0; index < reading.events.length; index++) {
    if (done.has(stepOf(index))) outcomes.push({ result: 'already-applied' });
    else outcomes.push({ ...(await applyEvent(message, integration, reading, index, { fresh, logKept, ahead: index === 0 ? ahead : undefined })), integration });
    logKept = true;
  }
  return outcomes;
}

/** Reads the request with its integration's reader; a type without a reader, or options it refuses, read as no event. */
export function readRequest(message: IngestMessage, integration: EntityItem<IntegrationData>, readers: ReaderLookup): Reading {
  const typeId = integrationTypeIdOf(integration.data);
  const reader = readers(typeId);
  if (!reader) return { events: [], ignoredReason: `The integration's type "${typeId}" has no reader`, notes: [] };
  const options = reader.options.safeParse(typeOptionsOf(integration.data.options));
  if (!options.success) {
    const problems = options.error.issues.map((issue) => `${issue.path.join('.') || 'options'} ${issue.message}`).join('; ');
    return { events: [], ignoredReason: `The integration's options do not fit its type "${typeId}": ${problems}`, notes: [] };
  }
  const { body } = message;
  const request: ReaderRequest = {
    method: message.method ?? 'POST',
    headers: message.headers,
    query: message.query,
    body,
    rawBody: typeof body === 'string' ? body : (JSON.stringify(body) ?? ''),
    ...(message.path !== undefined ? { path: message.path } : {}),
  };
  const reading = reader.read(request, {
    options: options.data as Record<string, unknown>,
    wrapperKey: integration.data.options.wrapper_key,
    captureAdditionalData: integration.data.options.capture_additional_data,
    defaultUrgency: integration.data.urgency,
    generateId: (index) => generatedThirdpartyId(message.requestId, index),
  });
  // What the intake did for the request (a heartbeat armed, an SNS subscription confirmed) leads its notes.
  return message.intakeNotes?.length ? { ...reading, notes: [...message.intakeNotes, ...reading.notes] } : reading;
}

const isLostRace = (error: unknown) => isConditionFailure(error) || isDomainError(error, 'conflict');

/**
 * Reads, decides and commits event `index`; a decision that lost a race is taken again from a fresh read. A first
 * delivery (`logKept` false) whose write lost because the request's log is there after all gives way to a redelivery's
 * apply (LogAlreadyKept, lib/ingest/worker.ts).
 */
async function applyEvent(
  message: IngestMessage,
  integration: EntityItem<IntegrationData>,
  reading: Reading,
  index: number,
  { fresh, logKept, ahead }: { fresh: boolean; logKept: boolean; ahead?: LookAhead | undefined },
): Promise<ApplyOutcome> {
  const event = reading.events[index]!;
  const logRef = { accountId: message.accountId, logId: logIdsOf(message).id };
  const last = index === reading.events.length - 1;
  const target: EventTarget = {
    message,
    logRef,
    integration,
    steps: last ? [stepOf(index), APPLIED_STEP] : [stepOf(index)],
    logKept,
    alertId: alertIdOfRequest(message.requestId, Date.parse(message.receivedAt), index),
  };
  const readNotes = readNotesOf(reading, index);
  let known = fresh;
  for (let attempt = 1; ; attempt++) {
    try {
      const state = await alertsOf(event, target, known, attempt === 1 ? ahead : undefined);
      return await commitDecision(decideEvent(event, integration, readNotes, state), target);
    } catch (error) {
      // A condition failure is a lost race or an earlier delivery that got there first: look again.
      if (!isLostRace(error) || attempt >= DECIDE_ATTEMPTS) throw error;
      await stopIfLogKept(target);
      if ((await stepsDone(logRef)).has(stepOf(index))) return { result: 'already-applied' };
      // The failed attempt may have got as far as its alert: the next one looks for it.
      known = false;
    }
  }
}

/** The newest alert of the Id the webhook read, looked up while the integration and windows are read. */
interface LookAhead {
  integrationId: string;
  thirdpartyId: string;
  newest: Promise<AlertItem | undefined>;
}

/** True when the promise is settled before anything else runs (the reads came from the configuration cache). */
async function answeredAtOnce(reads: Promise<unknown>): Promise<boolean> {
  const settled = reads.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}

/**
 * When the integration and window reads go to storage, the Id the webhook read (a plain-path wrapper key) is looked up
 * alongside them; the first event uses it when its reader finds the same Id. Answered from the cache, the reads cost
 * nothing to wait for, and the lookup waits for them, so a request a window silences reads no alert.
 */
function lookAhead(message: IngestMessage): LookAhead | undefined {
  if (message.alertKey === undefined) return undefined;
  const newest = newestAlertOfIdentity(message.accountId, message.integrationId, message.alertKey);
  newest.catch(() => undefined); // awaited by the event that uses it; this only keeps an unused failure from going unhandled
  return { integrationId: message.integrationId, thirdpartyId: message.alertKey, newest };
}

/**
 * The alerts an event's decision needs. `fresh`: no earlier delivery or attempt can have stored this event's alert,
 * so a create does not look for it. `ahead`: the Id's newest alert, already being read.
 */
async function alertsOf(event: ReadEvent, target: EventTarget, fresh: boolean, ahead?: LookAhead): Promise<EventState> {
  const { accountId } = target.logRef;
  const newestOf = () =>
    ahead && ahead.thirdpartyId === event.thirdpartyId && ahead.integrationId === target.integration.id
      ? ahead.newest
      : newestAlertOfIdentity(accountId, target.integration.id, event.thirdpartyId);
  if (event.event === 'create') {
    const made: AlertItem | undefined = fresh ? undefined : await findAlert(accountId, target.alertId);
    if (made) return { made };
    const [newest, responders] = await Promise.all([newestOf(), event.fields.responders?.length ? resolveResponders(accountId, event.fields.responders) : undefined]);
    return { active: newest && takesIdentityEvents(newest) ? newest : undefined, ...(responders ? { responders } : {}) };
  }
  if (event.alertRef) return { newest: await referencedAlert(accountId, target.integration.id, event.alertRef) };
  return { newest: await newestOf() };
}

/**
 * The alert an event names by Hark's id (or prefix id) or tiny id, when this integration made it: a sender acts only on
 * its own alerts, as by key. Alerts have no tiny id index: a tiny id is looked for among the account's newest alerts.
 */
async function referencedAlert(accountId: string, integrationId: string, ref: NonNullable<ReadEvent['alertRef']>): Promise<AlertItem | undefined> {
  const alert =
    ref.by === 'id' ? await findAlert(accountId, ref.value) : (await alertPage(accountId, { by: 'account' }, 0, TINY_ID_SEARCH)).find((item) => String(item.tinyId) === ref.value);
  return alert && alert.data.source_type === 'Integration' && alert.data.source_id === integrationId ? alert : undefined;
}
