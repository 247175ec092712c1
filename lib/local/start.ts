// `npm start`: the whole service on this machine, with data kept under HARK_DATA_DIR (default .data).

import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { logger } from '../logger.ts';
import { bootstrapLocal } from './bootstrap.ts';
import { JavaMissingError } from './dynamo.ts';
import { RUNTIME_FILE, type RuntimeInfo } from './runtime-file.ts';
import { startStack } from './stack.ts';

async function main() {
  const dataDir = resolve(process.env.HARK_DATA_DIR ?? '.data');
  const port = Number(process.env.PORT ?? 3000);
  const stack = await startStack({ dataDir, port, host: process.env.HOST ?? '127.0.0.1' });
  const runtime: RuntimeInfo = { pid: process.pid, baseUrl: stack.baseUrl, dynamoEndpoint: stack.dynamoEndpoint, tableName: stack.tableName };
  writeFileSync(join(dataDir, RUNTIME_FILE), JSON.stringify(runtime));
  const { apiKey, created } = await bootstrapLocal(dataDir, process.env.HARK_API_KEY || undefined);
  console.log(`Hark is running at ${stack.baseUrl} (data in ${dataDir}${created ? ', first start' : ''})`);
  console.log(`API base:     ${stack.baseUrl}/api/v4`);
  console.log(`Webhooks:     ${stack.baseUrl}/integration/<integration id>`);
  console.log(`Admin API key: ${apiKey}`);
  console.log(`Try: curl -H "Authorization: Bearer ${apiKey}" ${stack.baseUrl}/api/v4/schedules`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    rmSync(join(dataDir, RUNTIME_FILE), { force: true });
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
  } else {
    logger.error('Hark failed to start', { error: error as Error });
    console.error(`Hark failed to start: ${(error as Error).message}`);
  }
  process.exit(1);
});
