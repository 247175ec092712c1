// Starts the same embedded stack `npm start` runs, in memory and on free ports, once for all
// integration test files. Each test file creates its own accounts, so files never see each other's data.
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from '#lib/local/stack.ts';

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
  }
}

export async function setup(project: TestProject) {
  stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-test', visibilityTimeoutSeconds: 1 });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('tableName', stack.tableName);
  project.provide('sqsEndpoint', stack.sqsEndpoint);
  project.provide('ingestQueueUrl', stack.ingestQueueUrl);
  project.provide('ingestDlqUrl', stack.ingestDlqUrl);
  project.provide('linkSecret', stack.linkSecret);
}

export async function teardown() {
  await stack?.stop();
}
