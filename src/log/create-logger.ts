import { pino } from 'pino';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import type { Logger, LogLevel } from './logger.js';
import { REDACT_PATHS } from './redact-paths.js';

/** Where log lines go: a stream (process.stdout, a test's collector). */
export interface LogDestination {
  write(line: string): unknown;
  /** A terminal: lines are pretty-printed for a person instead of JSON. */
  isTTY?: boolean;
}

/** Turns one JSON log record into the text a person reads (pino-pretty, loaded by {@link loadPrettyPrinter}). */
export type PrettyPrinter = (record: Record<string, unknown>) => string;

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** LOG_LEVEL (default info). */
  level?: LogLevel;
  destination: LogDestination;
  /** Print for a person (a TTY): every string neutralized, then pino-pretty. Absent: JSON lines. */
  pretty?: PrettyPrinter;
  /** Fields of every line (e.g. `{ process: 'serve' }`). */
  base?: Record<string, unknown>;
}

/**
 * The bot's logger (pino): JSON lines by default, one per event, with ISO times, the level as a
 * word, the process's `base` fields, and secrets redacted (redact-paths.ts). For a person at a
 * terminal, `pretty` prints each line readably instead — and since a terminal executes escape
 * sequences and shows newlines, every string in the record (the message too) first goes through
 * neutralizePlainText, as any untrusted text shown to a person does. JSON needs no such
 * step: its escaping already keeps every value on its line and inert.
 */
export function createLogger(opts: LoggerOptions): Logger {
  const { destination, pretty } = opts;
  const stream = pretty
    ? {
        write(line: string) {
          let record: Record<string, unknown>;
          try {
            record = JSON.parse(line) as Record<string, unknown>;
          } catch {
            destination.write(`${neutralizePlainText(line)}\n`);
            return;
          }
          destination.write(pretty(neutralizeDeep(record) as Record<string, unknown>));
        },
      }
    : destination;
  return withMergedFields(
    pino(
      {
        level: opts.level ?? 'info',
        base: opts.base ?? {},
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
      },
      stream,
    ),
    {},
  );
}

type Pino = ReturnType<typeof pino>;

/**
 * A child's bindings and a call's fields as one object per line. pino writes a child's bindings and
 * then the call's fields as they are, so `log.child({ cluster }).info({ cluster }, …)` — a natural
 * call where a function gets a logger and also names its cluster — would carry the key twice, and
 * JSON readers then keep either one. Here the bindings are kept by this wrapper and merged into every call
 * (the call's value wins); an Error given as the fields goes under `err`, as pino would put it.
 */
function withMergedFields(p: Pino, bound: Record<string, unknown>): Logger & { pino: Pino } {
  const method =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (fields: object | string, msg?: string): void => {
      if (typeof fields === 'string') return Object.keys(bound).length ? p[level](bound, fields) : p[level](fields);
      const merged = fields instanceof Error ? { ...bound, err: fields } : { ...bound, ...fields };
      if (msg === undefined) p[level](merged);
      else p[level](merged, msg);
    };
  return {
    pino: p,
    debug: method('debug') as Logger['debug'],
    info: method('info') as Logger['info'],
    warn: method('warn') as Logger['warn'],
    error: method('error') as Logger['error'],
    child: (bindings) => withMergedFields(p, { ...bound, ...bindings }),
  };
}

/**
 * pino-pretty, loaded only when a terminal will read the logs (it is not needed otherwise, and
 * `k8s-health` commands load only what they use). Times as the local clock.
 */
export async function loadPrettyPrinter(): Promise<PrettyPrinter> {
  const { prettyFactory } = await import('pino-pretty');
  // Colours when the terminal supports them (pino-pretty honours NO_COLOR itself).
  const format = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  // The level is written as a word (formatters.level above); pino-pretty wants pino's numbers.
  return (record) => format({ ...record, level: LEVEL_NUMBERS[String(record.level)] ?? record.level });
}

const LEVEL_NUMBERS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** Every string in a log record (keys too), neutralized for a terminal; bounded depth. */
function neutralizeDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return neutralizePlainText(value, { max: 4000 });
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => neutralizeDeep(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [neutralizePlainText(k, { max: 200 }), neutralizeDeep(v, depth + 1)]),
  );
}

/** A process's logger, and the one its lifecycle lines go to. */
export interface ProcessLogger {
  log: Logger;
  /**
   * Startup and shutdown lines (listening on, workers running, configuration warnings, stopping,
   * stopped): written at info and above whatever LOG_LEVEL says, so an operator running with
   * LOG_LEVEL=error still sees where the process listens and why a feature is off. Same stream, same format.
   */
  announce: Logger;
}

/**
 * The logger of a long-running process (`serve`, `worker`): JSON lines on `destination`, pretty ones
 * when it is a terminal (pino-pretty loaded only then), at `level`, each line with `base`.
 */
export async function createProcessLogger(opts: {
  level?: LogLevel;
  destination: LogDestination;
  base?: Record<string, unknown>;
}): Promise<ProcessLogger> {
  const pretty = opts.destination.isTTY ? await loadPrettyPrinter() : undefined;
  const log = createLogger({ ...opts, pretty });
  const announce = withMergedFields((log as ReturnType<typeof withMergedFields>).pino.child({}, { level: 'info' }), {});
  return { log, announce };
}
