// The canary Lambda (docs/deploy.md, "Check it pages"): EventBridge Scheduler runs the smoke check every
// `hark:canaryMinutes` against the deployment's own public URL, with the admin key the canary secret holds. It ends
// with one log line, CHECK_FINISHED_LOG_MESSAGE, that metric filters turn into the check's count, failures and latency,
// which alarm on the operators' topic: never through Hark, which cannot page about itself when it is down.
import { secretObject } from '#lib/channel-adapters/secrets.ts';
import { logger } from '#lib/logger.ts';
import { harkApi } from '#lib/smoke-check/client.ts';
import { ntfyReader } from '#lib/smoke-check/readers.ts';
import { CHECK_FINISHED_LOG_MESSAGE } from '#lib/smoke-check/report.ts';
import { runSmokeCheck, type SmokeResult } from '#lib/smoke-check/run.ts';

/** Each wait of the check; four waits and the requests stay well inside the function's 3-minute timeout. */
const WAIT_MS = 30_000;

/** The canary secret's fields: the admin key of the account it checks, and the ntfy token to read its topic with. */
async function credentials(arn: string): Promise<{ key: string; ntfyToken: string | undefined }> {
  const secret = await secretObject(arn);
  const key = secret.HARK_API_KEY;
  if (typeof key !== 'string' || key === '') throw new Error('the canary secret has no HARK_API_KEY: put an admin API key of the account to check in it (docs/deploy.md)');
  const token = secret.HARK_NTFY_TOKEN;
  return { key, ntfyToken: typeof token === 'string' && token !== '' ? token : undefined };
}

const unable = (detail: string): SmokeResult => ({ ok: false, failedStep: 'canary', steps: [{ step: 'canary', ok: false, ms: 0, detail }], pageLatencyMs: undefined, endToEndMs: undefined });

export async function handler(): Promise<{ ok: boolean; failed_step: string | null }> {
  const started = performance.now();
  let result: SmokeResult;
  try {
    const { key, ntfyToken } = await credentials(process.env.HARK_CANARY_SECRET_ARN ?? '');
    result = await runSmokeCheck({
      api: harkApi(process.env.HARK_URL ?? '', key),
      readerFor: ({ push, sinceMs }) =>
        push.provider === 'ntfy' && push.server && push.topic
          ? ntfyReader({ server: push.server, topic: push.topic, sinceMs, token: ntfyToken })
          : 'push is not configured on this deployment, and the canary is paged by push: put HARK_NTFY_URL in the provider secret (docs/notifications.md, "Push")',
      waitMs: WAIT_MS,
      onStep: (step) => (step.ok ? logger.info('Smoke check step', { ...step }) : logger.error('Smoke check step failed', { ...step })),
    });
  } catch (error) {
    result = unable((error as Error).message);
  }
  const line = {
    ok: result.ok,
    failed_step: result.failedStep ?? null,
    detail: result.steps.find((s) => !s.ok)?.detail ?? null,
    page_latency_ms: result.pageLatencyMs ?? null,
    end_to_end_ms: result.endToEndMs ?? null,
    duration_ms: Math.round(performance.now() - started),
  };
  if (result.ok) logger.info(CHECK_FINISHED_LOG_MESSAGE, line);
  else logger.error(CHECK_FINISHED_LOG_MESSAGE, line);
  return { ok: result.ok, failed_step: line.failed_step };
}
