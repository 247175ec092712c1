import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';

/** One log record as the logger would print it: `level`, `message`, `timestamp`, `service` and the keys logged with it. */
export type LogRecord = Record<string, unknown>;
/** Where records go instead of JSON lines on stdout: `npm start` renders them for a person (lib/local/terminal.ts). */
export type LogSink = (record: LogRecord) => void;

/**
 * Powertools' logger with one seam: a sink that takes each record instead of its JSON line. Lambdas never set one,
 * so AWS keeps the structured JSON; the local runtime sets one to print the same records as human lines.
 */
class HarkLogger extends Logger {
  #sink: LogSink | undefined;
  #pinned = false;

  setSink(sink: LogSink | undefined): void {
    this.#sink = sink;
  }

  /**
   * Sets the level for good: Powertools puts back the level it was built with at every warm invocation (its debug
   * sampling), which would undo a level chosen at run time (HARK_LOG_LEVEL in `npm start`, the integration tests).
   */
  pinLogLevel(level: Parameters<Logger['setLogLevel']>[0]): void {
    this.#pinned = true;
    this.setLogLevel(level);
  }

  override refreshSampleRateCalculation(): void {
    if (!this.#pinned) super.refreshSampleRateCalculation();
  }

  /**
   * Prints a record another thread built (the local runtime's function threads, lib/local/threads.ts): through the
   * sink when one is set, else as the JSON line Powertools would print (warnings and errors on stderr).
   */
  printRecord(record: LogRecord): void {
    if (this.#sink) return this.#sink(record);
    const level = String(record.level ?? 'INFO');
    (level === 'INFO' || level === 'DEBUG' ? process.stdout : process.stderr).write(`${JSON.stringify(record)}\n`);
  }

  protected override printLog(logLevel: number, log: LogItem): void {
    if (!this.#sink) return super.printLog(logLevel, log);
    log.prepareForPrint();
    this.#sink(log.getAttributes());
  }
}

/** The one configured logger: structured JSON, level from POWERTOOLS_LOG_LEVEL (default INFO). */
export const logger = new HarkLogger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'hark' });

/** The API Gateway request id of an HTTP event (the id its access log line carries), if any. */
function apiRequestIdOf(event: unknown): string | undefined {
  const id = (event as { requestContext?: { requestId?: unknown } } | undefined)?.requestContext?.requestId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Middy middlewares of every Lambda entry point: each log line of an invocation carries the Lambda context
 * (function name, version, memory, cold start, `function_request_id`) and, for HTTP events, the API Gateway
 * request id as `correlation_id`, which joins it to the access log. Keys added during an invocation are dropped
 * at its end, so nothing leaks into the next request a warm container serves.
 */
export function lambdaLogging(): MiddlewareObj[] {
  return [
    injectLambdaContext(logger, { resetKeys: true }),
    {
      before: (request) => {
        const id = apiRequestIdOf(request.event);
        if (id) logger.setCorrelationId(id);
      },
    },
  ];
}
