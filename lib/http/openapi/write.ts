// `npm run openapi`: writes the API description to docs/openapi.json (a test fails while the file is stale).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiFileText } from './document.ts';

export const OPENAPI_FILE = join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json');

writeFileSync(OPENAPI_FILE, openApiFileText());
process.stdout.write(`Wrote ${OPENAPI_FILE}\n`);
