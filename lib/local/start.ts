// `npm start`: the whole service on this machine, with data kept under HARK_DATA_DIR (default .data).
// Order matters (docs/configuration.md#start-up): the configuration is checked, the data folder locked and
// the port probed before anything slow starts; the admin key exists before the gateway listens.
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { config, ConfigError } from '../config.ts';
import { bootstrapLocal, type Bootstrapped } from './bootstrap.ts';
import { adminSignInLink } from './console-link.ts';
import { SIGN_IN_LINK_MINUTES } from '../limits.ts';
import { installLocalInbox } from './inbox.ts';
import { printSignInLinksTo } from '../console/sign-in-delivery.ts';
import { JavaMissingError } from './dynamo.ts';
import { acquireDataLock, DataFolderLockedError } from './lock.ts';
import { whenStarterGone } from './parent-watch.ts';
import { assertCanListen, ListenError } from './ports.ts';
import { DataFolderNotPrivateError, keepDataFolderPrivate, tightenedNotice } from './private-data.ts';
import { RUNTIME_FILE, type RuntimeInfo } from './runtime-file.ts';
import { baseUrlOf, startStack } from './stack.ts';
import { NoSynthesizedStackError } from './template.ts';
import { eventsNotice, terminalLevel, useTerminal } from './terminal.ts';

/** How often npm start looks whether the process that started it is still there. */
const PARENT_CHECK_MS = 1_000;

/** Failures a user causes and fixes: their message is the one line to print. */
const EXPECTED_FAILURES = [ConfigError, DataFolderLockedError, ListenError, JavaMissingError, DataFolderNotPrivateError, NoSynthesizedStackError];

async function main() {
  // Ctrl-C at any moment stops cleanly: during start-up it waits for the parts already starting.
  let stopRequested = false;
  let stop = async () => {
    // A second Ctrl-C does not wait.
    if (stopRequested) process.exit(130);
    stopRequested = true;
  };
  const onSignal = () => void stop();
  // Ctrl-C, a process manager's stop, a closed terminal (docs/configuration.md, "Start-up").
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  // npm does not always pass its own SIGTERM on: when it (or whatever started this process) ends, this stops too.
  whenStarterGone(onSignal, PARENT_CHECK_MS);

  const { port, host, dataDir: dataDirSetting, apiKey: requestedKey, logLevel } = config().local;
  // From here on the logger's records are lines for a person, not JSON (lib/local/terminal.ts).
  const args = process.argv.slice(2);
  const level = terminalLevel(args, logLevel);
  // Bundle mode: the functions from the synthesized app (`npm run synth`), as `cdk deploy` uploads them.
  const bundles = args.includes('--bundles') ? resolve('cdk.out') : undefined;
  useTerminal(level);
  const dataDir = resolve(dataDirSetting);
  const notice = tightenedNotice(dataDir, keepDataFolderPrivate(dataDir));
  if (notice) console.log(notice);
  const lock = acquireDataLock(dataDir, { holder: 'npm start', baseUrl: baseUrlOf(host, port) });
  await assertCanListen(port, host);

  // Messages for a channel with no provider go to the console's local inbox instead of being suppressed
  // (docs/console.md, "The local inbox"); HARK_LOCAL_INBOX=0 turns it off.
  process.env.HARK_LOCAL_INBOX ??= '1';
  installLocalInbox();
  // A sign-in link asked for at /sign-in is printed here (and mailed when HARK_SMTP_URL is set), never put in an
  // account's inbox: the person at this terminal owns the data folder (docs/security.md).
  printSignInLinksTo((line) => console.log(line));

  let bootstrapped: Bootstrapped | undefined;
  const stack = await startStack({
    dataDir,
    port,
    host,
    // The background functions each in a thread of their own, as each Lambda runs apart (decision 0033);
    // `--one-thread` keeps them on the gateway's event loop (a debugger's single thread).
    isolation: args.includes('--one-thread') ? 'none' : 'threads',
    ...(bundles ? { bundles } : {}),
    beforeListen: async () => {
      bootstrapped = await bootstrapLocal(dataDir, requestedKey);
    },
  });
  const runtimeFile = join(dataDir, RUNTIME_FILE);
  let stopping = false;
  stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    rmSync(runtimeFile, { force: true });
    await stack.stop();
    lock.release();
    process.exit(0);
  };
  if (stopRequested) return stop();

  const { accountId, accountUserId, apiKey, created, replaced } = bootstrapped!;
  const runtime: RuntimeInfo = { pid: process.pid, baseUrl: stack.baseUrl, dynamoEndpoint: stack.dynamoEndpoint, tableName: stack.tableName };
  writeFileSync(runtimeFile, JSON.stringify(runtime));

  console.log(`Hark is running at ${stack.baseUrl} (data in ${dataDir}${created ? ', first start' : ''})`);
  console.log(`API base:      ${stack.baseUrl}/api/v4`);
  console.log(`Webhooks:      ${stack.baseUrl}/integration/<integration id>`);
  if (stack.smtpPort !== undefined) {
    const domain = config().inbound.emailDomain;
    const to = domain ? `<integration id>@${domain}` : 'email integrations (set HARK_INBOUND_EMAIL_DOMAIN to give them addresses)';
    console.log(`Inbound mail:  smtp://${host.includes(':') ? `[${host}]` : host}:${stack.smtpPort} for ${to}`);
  }
  if (bundles) console.log(`Functions:     ${stack.bundledFunctions} bundles from ${bundles}, each in its own thread with the template's environment`);
  console.log(`Account id:    ${accountId}`);
  console.log(`Admin account user id: ${accountUserId}`);
  console.log(`Admin API key: ${apiKey}${replaced ? ' (replaces the previous admin key, which no longer works)' : ''}`);
  console.log(`Try: curl -H "Authorization: Bearer ${apiKey}" ${stack.baseUrl}/api/v4/schedules`);
  const signIn = await adminSignInLink(accountId, accountUserId, config().links.publicUrl ?? stack.baseUrl);
  if (signIn) console.log(`Console:       ${signIn} (signs the admin in once, within ${SIGN_IN_LINK_MINUTES} minutes)`);
  console.log(eventsNotice(level));
}

main().catch((error: unknown) => {
  if (EXPECTED_FAILURES.some((kind) => error instanceof kind)) {
    console.error((error as Error).message);
  } else {
    console.error(`Hark failed to start: ${(error as Error).message}`);
    console.error((error as Error).stack);
  }
  process.exit(1);
});
