// The smoke check's lines, one per step with its latency, and the verdict (docs/deploy.md, "Check it pages").
import { STEPS, type SmokeResult, type StepResult } from './run.ts';

const NAME_WIDTH = Math.max(...STEPS.map((s) => s.length));

export function stepLine(result: StepResult): string {
  return `${result.ok ? 'ok  ' : 'FAIL'}  ${result.step.padEnd(NAME_WIDTH)}  ${`${result.ms} ms`.padStart(8)}  ${result.detail}`;
}

export function verdictLine(result: SmokeResult): string {
  if (result.ok) return `passed: the page reached the canary ${result.pageLatencyMs} ms after the webhook; acknowledged and resolved ${result.endToEndMs} ms after it`;
  const failed = result.steps.find((s) => !s.ok)!;
  return `FAILED at step "${result.failedStep}": ${failed.detail}`;
}

/** The canary Lambda's one line per check, which the stack's metric filters count and time (infra/canary.ts). */
export const CHECK_FINISHED_LOG_MESSAGE = 'Smoke check finished';
