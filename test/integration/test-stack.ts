// The embedded stack for tests, started again (up to three times) when DynamoDB Local does not come up in time: on a
// loaded machine its JVM can take longer than the start allows, which says nothing about the code under test.
import { startStack, type RunningStack, type StackOptions } from '#lib/local/stack.ts';

const ATTEMPTS = 3;

export async function startTestStack(options: StackOptions): Promise<RunningStack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStack(options);
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (attempt >= ATTEMPTS || !message.includes('did not start within')) throw error;
      console.warn(`Starting the test stack, attempt ${attempt} of ${ATTEMPTS}: ${message.split('\n')[0]}; trying again`);
    }
  }
}
