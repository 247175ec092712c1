// Starts the same embedded stack `npm start` runs, in memory and on free ports, once for all
// integration test files. Each test file creates its own accounts, so files never see each other's data.
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { RunningStack } from '#lib/local/stack.ts';
import { logger } from '#lib/logger.ts';
import { startTestStack } from './test-stack.ts';

let stack: RunningStack | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    sqsEndpoint: string;
    ingestQueueUrl: string;
    ingestDlqUrl: string;
    /** The stack's key for signed action links, so tests can sign links as messages carry them. */
    linkSecret: string;
    /** The Twilio auth token the stack checks X-Twilio-Signature with, so tests can sign Twilio's requests. */
    twilioAuthToken: string;
    /** The stack's SMTP listener for email integrations (docs/monitors.md, "Email"). */
    smtpPort: number;
    /** HARK_INBOUND_EMAIL_DOMAIN of the stack. */
    inboundEmailDomain: string;
  }
}

/** Set before the stack starts: configuration is read once, at the first request. */
const TWILIO_AUTH_TOKEN = 'test-twilio-auth-token-0123456789abcdef';

export async function setup(project: TestProject) {
  // The event line of every test alert, page and webhook (lib/activity/events.ts) would bury the report: warnings and
  // errors only, unless POWERTOOLS_LOG_LEVEL asks for more. test/integration/terminal.test.ts reads the lines themselves.
  if (!process.env.POWERTOOLS_LOG_LEVEL) logger.pinLogLevel('WARN');
  process.env.HARK_TWILIO_AUTH_TOKEN ??= TWILIO_AUTH_TOKEN;
  // SNS certificates from the test-only folder (never fetched); email integrations get addresses at a test domain.
  process.env.HARK_SNS_CERT_DIR ??= join(import.meta.dirname, '..', 'fixtures', 'monitors', 'aws_cloudwatch');
  process.env.HARK_INBOUND_EMAIL_DOMAIN ??= 'inbound.hark.test';
  stack = await startTestStack({ dataDir: undefined, port: 0, tableName: 'hark-test', visibilityTimeoutSeconds: 1, smtpPort: 0 });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('tableName', stack.tableName);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('ingestQueueUrl', stack.ingestQueueUrl);
  project.provide('ingestDlqUrl', stack.ingestDlqUrl);
  project.provide('linkSecret', stack.linkSecret);
  project.provide('twilioAuthToken', process.env.HARK_TWILIO_AUTH_TOKEN);
  project.provide('smtpPort', stack.smtpPort!);
  project.provide('inboundEmailDomain', process.env.HARK_INBOUND_EMAIL_DOMAIN);
}

export async function teardown() {
  await stack?.stop();
}
