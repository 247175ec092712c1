// `npm run admin -- smoke`: the smoke check of a running Hark (docs/deploy.md, "Check it pages"), from the operator's
// machine. It talks to the deployment's API only; against the local `npm start` with no push provider it reads the
// canary's page from the local inbox, which is where that runtime delivers it (docs/console.md, "The local inbox").
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { config } from '../config.ts';
import { newestInboxMessages } from '../console/local-inbox.ts';
import { processAlive } from '../local/lock.ts';
import { ADMIN_KEY_FILE } from '../local/private-data.ts';
import { RUNTIME_FILE, type RuntimeInfo } from '../local/runtime-file.ts';
import { harkApi } from '../smoke-check/client.ts';
import { ntfyReader, type PageReader } from '../smoke-check/readers.ts';
import type { AccountUser, PushSubscription } from '../smoke-check/recipient.ts';
import { stepLine, verdictLine } from '../smoke-check/report.ts';
import { runSmokeCheck } from '../smoke-check/run.ts';

export const SMOKE_USAGE = `Usage: npm run admin -- smoke [--url <base url>] [--key <admin API key>] [--person <email>] [--timeout <seconds>] [--json]

Pages the account's canary through a throwaway webhook integration, reads the page back where the canary receives
it (its ntfy push topic, or the local inbox of \`npm start\`), acknowledges through the page's signed link, resolves,
and deletes what it made, printing each step with its latency. Exit 0: passed; 1: a step failed; 2: usage.

  --url        the deployment's base URL (the ApiUrl output); default HARK_URL, else the running \`npm start\`
  --key        an admin API key of the account to check; default HARK_API_KEY, else the local admin key
  --person     also page this account user (a real person: their phone rings too)
  --timeout    seconds each wait may take (default 60)
  --data-dir   the local data folder whose \`npm start\` is the default (HARK_DATA_DIR, default .data)
  HARK_NTFY_TOKEN  the token to read the ntfy server with, when it needs one`;

export class SmokeUsageError extends Error {}

const DEFAULT_WAIT_SECONDS = 60;
const MAX_WAIT_SECONDS = 600;

interface Target {
  baseUrl: string;
  key: string;
  waitMs: number;
  person: string | undefined;
  json: boolean;
  /** The local `npm start` serving baseUrl, when it is one. */
  local: RuntimeInfo | undefined;
}

function runningLocal(dataDir: string): RuntimeInfo | undefined {
  const file = join(dataDir, RUNTIME_FILE);
  if (!existsSync(file)) return undefined;
  const runtime = JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
  return processAlive(runtime.pid) ? runtime : undefined;
}

const sameBase = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The command line and environment as a target, or a SmokeUsageError saying what is missing or wrong. */
export function smokeTarget(argv: string[], env: NodeJS.ProcessEnv): Target {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: { url: { type: 'string' }, key: { type: 'string' }, person: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
    }));
  } catch (error) {
    throw new SmokeUsageError((error as Error).message);
  }
  const seconds = values.timeout === undefined ? DEFAULT_WAIT_SECONDS : Number(values.timeout);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS) throw new SmokeUsageError(`--timeout must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}, got ${values.timeout}`);
  if (values.person !== undefined && !/^[^\s@]+@[^\s@]+$/.test(values.person)) throw new SmokeUsageError(`--person must be an email address, got ${JSON.stringify(values.person)}`);
  const dataDir = resolve(values['data-dir'] ?? env.HARK_DATA_DIR ?? '.data');
  const local = runningLocal(dataDir);
  const baseUrl = values.url ?? env.HARK_URL ?? local?.baseUrl;
  if (!baseUrl) throw new SmokeUsageError(`No deployment to check: give --url (or HARK_URL), or start \`npm start\` (none is running on ${dataDir})`);
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new SmokeUsageError(`--url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new SmokeUsageError(`--url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  const servedLocally = local && sameBase(local.baseUrl, baseUrl) ? local : undefined;
  const keyFile = join(dataDir, ADMIN_KEY_FILE);
  const key = values.key ?? env.HARK_API_KEY ?? (servedLocally && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
  if (!key) throw new SmokeUsageError('No API key: give --key (or HARK_API_KEY), an admin key of the account to check');
  return { baseUrl: parsed.toString(), key, waitMs: seconds * 1000, person: values.person, json: values.json === true, local: servedLocally };
}

/** The local inbox of the `npm start` the check talks to: the canary's push messages since the check began. */
function localInboxReader(runtime: RuntimeInfo, canary: AccountUser, sinceMs: number): PageReader {
  process.env.HARK_DYNAMODB_ENDPOINT = runtime.dynamoEndpoint;
  process.env.HARK_TABLE_NAME = runtime.tableName;
  config();
  return {
    describe: 'push to the local inbox of npm start',
    async received() {
      const messages = await newestInboxMessages(canary.account_id, 50);
      return messages
        .filter((m) => m.channel === 'push' && m.to === canary.id && Date.parse(m.createdAt) >= sinceMs - 1000)
        .map((m) => ({ title: m.subject, links: Object.fromEntries(m.actions.map((a) => [a.label, a.url])) }));
    },
  };
}

function readerFor(target: Target, env: NodeJS.ProcessEnv) {
  return ({ canary, push, sinceMs }: { canary: AccountUser; push: PushSubscription; sinceMs: number }): PageReader | string => {
    if (push.provider === 'ntfy' && push.server && push.topic) return ntfyReader({ server: push.server, topic: push.topic, sinceMs, token: env.HARK_NTFY_TOKEN });
    if (target.local) return localInboxReader(target.local, canary, sinceMs);
    return 'push is not configured on this deployment, and the canary is paged by push: set HARK_NTFY_URL (docs/notifications.md, "Push")';
  };
}

/** Runs the command; answers the exit code (0 passed, 1 a step failed, 2 usage). */
export async function smokeCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(SMOKE_USAGE);
    return 0;
  }
  let target: Target;
  try {
    target = smokeTarget(argv, env);
  } catch (error) {
    if (!(error instanceof SmokeUsageError)) throw error;
    console.error(`${error.message}\n\n${SMOKE_USAGE}`);
    return 2;
  }
  if (!target.json) console.log(`Smoke check of ${target.baseUrl}`);
  const result = await runSmokeCheck({
    api: harkApi(target.baseUrl, target.key),
    readerFor: readerFor(target, env),
    person: target.person,
    waitMs: target.waitMs,
    onStep: (step) => !target.json && console.log(stepLine(step)),
  });
  if (target.json) console.log(JSON.stringify(result));
  else console.log(verdictLine(result));
  return result.ok ? 0 : 1;
}
