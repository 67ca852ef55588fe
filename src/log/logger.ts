/**
 * The logger every part of the bot writes to: structured, levelled, with child loggers that carry
 * ids (cluster, job, request). A pino logger is one (log/create-logger.ts); so is the no-op logger.
 * Deep code imports only this type, never pino itself: `k8s-health --help` and `check` load no logger
 * they do not use. Call as pino does: `log.info({ cluster, requestId }, 'what happened')` or
 * `log.warn('what happened')`. Values from a cluster or an API error go in as they are: the JSON
 * output escapes them and the pretty output neutralizes them (create-logger.ts).
 */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  /** A logger whose every line carries `bindings` too (e.g. `{ cluster: 'prod-east' }`). */
  child(bindings: Record<string, unknown>): Logger;
}

/** One log method: fields then message, or a message alone. */
export interface LogFn {
  (fields: object, msg?: string): void;
  (msg: string): void;
}

/** The levels LOG_LEVEL accepts (config/read-env-options.ts). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger that drops everything (tests that do not look, optional loggers left out). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
