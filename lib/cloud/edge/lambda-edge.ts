import type { LogItem } from '@aws-lambda-powertools/logger';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { INTERNAL_ERROR_BODY } from '../../http/requests.ts';
import { type Logger, type LogLevel, redact } from '../../platform/logger.ts';

/** Powertools' logger with its JSON lines sent to `write` instead of stdout (tests read them). */
class LineLogger extends PowertoolsLogger {
  private readonly write: (line: string) => void;
  constructor(options: ConstructorParameters<typeof PowertoolsLogger>[0], write: (line: string) => void) {
    super(options);
    this.write = write;
  }

  protected override printLog(_level: number, log: LogItem): void {
    this.write(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }
}

export interface LambdaLoggerOptions {
  level: LogLevel;
  /**
   * Powertools' JMESPath search, for an edge that names where its event carries the correlation id
   * (injectLambdaContext's correlationIdPath): the HTTP edges pass it (http-composition.ts); the
   * queue and stream functions leave it, and the JMESPath engine, out of their bundles.
   */
  correlationIdSearchFn?: (expression: string, data: unknown) => unknown;
  /** Where the JSON lines go; default stdout, where Lambda sends them to CloudWatch Logs. */
  write?: (line: string) => void;
}

/**
 * The Powertools logger every Vigil Lambda hands to `injectLambdaContext`: each line carries the
 * function's name, the Lambda request id and, where the edge sets one, the correlation id.
 */
export function createPowertoolsLogger(options: LambdaLoggerOptions): PowertoolsLogger {
  const settings = {
    serviceName: 'vigil',
    logLevel: options.level.toUpperCase() as Uppercase<LogLevel>,
    ...(options.correlationIdSearchFn ? { correlationIdSearchFn: options.correlationIdSearchFn } : {}),
  };
  return options.write ? new LineLogger(settings, options.write) : new PowertoolsLogger(settings);
}

/**
 * The project's Logger over a Powertools logger. Children log through the one Powertools instance
 * with their fields merged in, so a child made at cold start still carries the context that
 * `injectLambdaContext` adds to each later invocation.
 */
export function fromPowertools(powertools: PowertoolsLogger, base: Record<string, unknown> = {}): Logger {
  const fields = (extra?: Record<string, unknown>) => (extra ? { ...base, ...redact(extra) } : base);
  return {
    debug: (msg, extra) => powertools.debug(msg, fields(extra)),
    info: (msg, extra) => powertools.info(msg, fields(extra)),
    warn: (msg, extra) => powertools.warn(msg, fields(extra)),
    error: (msg, extra) => powertools.error(msg, fields(extra)),
    child: (extra) => fromPowertools(powertools, fields(extra)),
  };
}

/**
 * Options for middy's http-error-handler as the last line of defence of an HTTP edge: an error
 * that escapes the router (or is thrown by the adapter itself) is logged and answered with the
 * generic 500 body; nothing of the error reaches the caller.
 */
export function internalErrorFallback(logger: Logger) {
  return {
    logger: (err: unknown) => logger.error('unhandled error', { err }),
    fallbackMessage: JSON.stringify(INTERNAL_ERROR_BODY),
  };
}
