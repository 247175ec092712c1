// The smoke check, step by step (docs/deploy.md, "Check it pages"): a throwaway webhook integration pages the canary,
// the page is read back where the canary receives it, its signed Acknowledge link acknowledges the alert, the monitor's
// resolve resolves it, and what the check made is deleted whatever happened. Each step is timed; the first that fails
// ends the check (clean-up still runs). Pure of any runtime: the CLI (lib/admin/smoke.ts) and the canary Lambda
// (functions/canary.ts) give it the API, where to read pages, and where to report each step.
import { randomBytes } from 'node:crypto';
import { call, CheckFailure, errorText, linkRefusal, type HarkApi } from './client.ts';
import { canaryRecipient, personByEmail, pushOf, type AccountUser, type PushSubscription } from './recipient.ts';
import type { PageReader } from './readers.ts';

export const STEPS = ['canary', 'create integration', 'post webhook', 'alert created', 'page sent', 'page received', 'acknowledge link', 'resolve', 'clean up'] as const;
export type StepName = (typeof STEPS)[number];

export interface StepResult {
  step: StepName;
  ok: boolean;
  ms: number;
  detail: string;
}

export interface SmokeResult {
  ok: boolean;
  /** The first step that failed. */
  failedStep: StepName | undefined;
  steps: StepResult[];
  /** From posting the webhook until the page was in the canary's hands, and until the alert was resolved. */
  pageLatencyMs: number | undefined;
  endToEndMs: number | undefined;
}

export interface SmokeOptions {
  api: HarkApi;
  /** Where to read the canary's pages, from its push subscription; a string says why they cannot be read. */
  readerFor(recipient: { canary: AccountUser; push: PushSubscription; sinceMs: number }): PageReader | string;
  /** Also page this account user (by email): a real person, who then gets the page on their own channels. */
  person?: string | undefined;
  /** How long each wait (alert, page, message, resolve) may take. */
  waitMs: number;
  /** Called as each step ends (the CLI prints it). */
  onStep?: (result: StepResult) => void;
}

const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown by a poll when waiting longer cannot help (a page `failed` for good): the step fails at once. */
class FinalFailure extends CheckFailure {}

/**
 * Polls `check` until it returns a value; fails the step with `what` after `ms`. A request that fails meanwhile (a
 * timeout, a 5xx) is polled again: the wait's deadline bounds it, and the failure names the last such error.
 */
async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + ms;
  let lastError: string | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      if (!(error instanceof CheckFailure) || error instanceof FinalFailure) throw error;
      lastError = error.message;
    }
    if (performance.now() > deadline) throw new CheckFailure(`${what} within ${Math.round(ms / 1000)} s${lastError ? ` (last error: ${lastError})` : ''}`);
    await sleep(POLL_MS);
  }
}

/** A clean-up request, tried up to three times: what the check made must not stay because of one slow answer. */
async function persist<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CheckFailure) || tries === 3) throw error;
      await sleep(POLL_MS * tries);
    }
  }
}

interface Alert {
  id: string;
  prefix_id: string;
  status: string;
}
interface NotificationRecord {
  account_user_id: string;
  channel: string;
  type: string;
  status: string;
  reason: string | null;
}

export async function runSmokeCheck(options: SmokeOptions): Promise<SmokeResult> {
  const { api, waitMs } = options;
  const runId = `${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '')}-${randomBytes(3).toString('hex')}`;
  const thirdpartyId = `hark-smoke-${runId}`;
  const title = `Hark smoke check ${runId}`;
  const steps: StepResult[] = [];
  const made: { integration?: { id: string; prefix_id: string; inbound_url_path: string }; alert?: Alert } = {};
  let canary: AccountUser | undefined;
  let reader: PageReader | undefined;
  let webhookAt: number | undefined;
  let pageLatencyMs: number | undefined;
  let endToEndMs: number | undefined;
  const links: { acknowledge?: string } = {};

  const step = async (name: StepName, body: () => Promise<string>): Promise<boolean> => {
    const started = performance.now();
    let result: StepResult;
    try {
      result = { step: name, ok: true, ms: 0, detail: await body() };
    } catch (error) {
      const detail = error instanceof CheckFailure ? error.message : `unexpected error: ${(error as Error).message}`;
      result = { step: name, ok: false, ms: 0, detail };
    }
    result.ms = Math.round(performance.now() - started);
    steps.push(result);
    options.onStep?.(result);
    return result.ok;
  };
  const alertNow = () => api.expect<Alert>(200, 'GET', `/alerts/${made.alert!.id}`);
  const postWebhook = async (event: Record<string, unknown>) => {
    const reply = await call(`${api.baseUrl}${made.integration!.inbound_url_path}`, { method: 'POST', body: { ...event, Id: thirdpartyId } });
    if (reply.status !== 200) throw new CheckFailure(`the webhook answered ${reply.status}: ${errorText(reply)}`);
    return (reply.body as { log_id?: string }).log_id ?? '';
  };

  const passed =
    (await step('canary', async () => {
      const found = await canaryRecipient(api);
      canary = found.canary;
      const chosen = options.readerFor({ canary, push: await pushOf(api, canary.id), sinceMs: Date.now() });
      if (typeof chosen === 'string') throw new CheckFailure(chosen);
      reader = chosen;
      return `${canary.prefix_id}${found.made ? ' (made now)' : ''}, ${reader.describe}`;
    })) &&
    (await step('create integration', async () => {
      const people = [canary!.id];
      if (options.person) people.push((await personByEmail(api, options.person)).id);
      made.integration = await api.expect(201, 'POST', '/integrations', {
        name: title,
        integration_type_id: 'webhook',
        urgency: 'high',
        account_user_ids: people,
        meta: { hark_smoke: runId },
      });
      return `${made.integration!.prefix_id} paging ${options.person ? `the canary and ${options.person}` : 'the canary only'}`;
    })) &&
    (await step('post webhook', async () => {
      webhookAt = performance.now();
      return `queued as ${await postWebhook({ event_type: 'create', Title: title, Description: 'A smoke check of this deployment: it acknowledges, resolves and deletes this alert itself.' })}`;
    })) &&
    (await step('alert created', async () => {
      made.alert = await waitFor('no alert was created (is the ingest worker running?)', waitMs, async () => {
        const found = await api.expect<{ data: Alert[] }>(200, 'GET', `/alerts?thirdparty_id=${encodeURIComponent(thirdpartyId)}`);
        return found.data[0];
      });
      return `${made.alert.prefix_id} ${made.alert.status}`;
    })) &&
    (await step('page sent', async () => {
      const record = await waitFor('the canary\'s page was not sent (are the timers and their sender running?)', waitMs, async () => {
        const records = await api.expect<{ data: NotificationRecord[] }>(200, 'GET', `/alerts/${made.alert!.id}/notifications?limit=100`);
        const page = records.data.find((r) => r.account_user_id === canary!.id && r.channel === 'push' && r.type === 'alert.open');
        if (page && (page.status === 'failed' || page.status === 'suppressed')) throw new FinalFailure(`the canary's page is ${page.status}: ${page.reason ?? 'no reason given'}`);
        return page && page.status !== 'queued' ? page : undefined;
      });
      return `push ${record.status}`;
    })) &&
    (await step('page received', async () => {
      const page = await waitFor(`the page did not arrive (${reader!.describe})`, waitMs, async () => (await reader!.received()).find((p) => p.title.includes(title)));
      pageLatencyMs = Math.round(performance.now() - webhookAt!);
      const acknowledge = page.links.Acknowledge;
      if (!acknowledge) throw new CheckFailure(`the page carries no Acknowledge link (links: ${Object.keys(page.links).join(', ') || 'none'}): is HARK_LINK_SECRET set?`);
      links.acknowledge = acknowledge;
      return `${pageLatencyMs} ms after the webhook, with its Acknowledge link`;
    })) &&
    (await step('acknowledge link', async () => {
      // What the ntfy app's button does: POST the signed link (opening it with GET only shows the confirmation page).
      const reply = await call(links.acknowledge!, { method: 'POST' });
      if (reply.status !== 200) throw new CheckFailure(linkRefusal(reply, links.acknowledge!, api.baseUrl));
      const alert = await alertNow();
      if (alert.status !== 'acknowledged') throw new CheckFailure(`after the Acknowledge link the alert is ${alert.status}`);
      return `${alert.prefix_id} acknowledged`;
    })) &&
    (await step('resolve', async () => {
      await postWebhook({ event_type: 'resolve' });
      await waitFor('the monitor\'s resolve did not resolve the alert', waitMs, async () => ((await alertNow()).status === 'resolved' ? true : undefined));
      endToEndMs = Math.round(performance.now() - webhookAt!);
      return `resolved by the webhook, ${endToEndMs} ms after the first one`;
    }));

  await step('clean up', () => cleanUp(api, made, thirdpartyId));
  const failed = steps.find((s) => !s.ok);
  return { ok: passed && !failed, failedStep: failed?.step, steps, pageLatencyMs, endToEndMs };
}

/** DELETE, where 404 is as good as 204: a retried delete whose first attempt went through finds nothing. */
async function gone(api: HarkApi, path: string): Promise<void> {
  const reply = await api.call('DELETE', path);
  if (reply.status !== 204 && reply.status !== 404) throw new CheckFailure(`DELETE /api/v4${path} answered ${reply.status}: ${errorText(reply)}`);
}

/** Deletes the alert (found by its thirdparty id when the check gave up before seeing it) and the integration. */
async function cleanUp(api: HarkApi, made: { integration?: { id: string; prefix_id: string }; alert?: Alert }, thirdpartyId: string): Promise<string> {
  const deleted: string[] = [];
  if (made.integration) {
    await persist(() => gone(api, `/integrations/${made.integration!.id}`));
    deleted.push(made.integration.prefix_id);
    const found = await persist(() => api.expect<{ data: Alert[] }>(200, 'GET', `/alerts?thirdparty_id=${encodeURIComponent(thirdpartyId)}`));
    for (const alert of found.data) {
      await persist(() => gone(api, `/alerts/${alert.id}`));
      deleted.push(alert.prefix_id);
    }
  }
  return deleted.length > 0 ? `deleted ${deleted.join(', ')}` : 'nothing was made';
}
