import { createLogger } from '../../src/log/create-logger.js';
import type { Logger, LogLevel } from '../../src/log/logger.js';

/** What a captured logger wrote. */
export interface CapturedLogs {
  /** A real pino logger (the production one: levels, redaction), writing here. */
  log: Logger;
  /** Every line as written (JSON). */
  lines: string[];
  /** Every line parsed. */
  records: Record<string, unknown>[];
  /** The `msg` of every line. */
  messages: string[];
}

/** The bot's logger (log/create-logger.ts) writing JSON lines into arrays a test can read. */
export function captureLogs(level: LogLevel = 'debug'): CapturedLogs {
  const lines: string[] = [];
  const records: Record<string, unknown>[] = [];
  const messages: string[] = [];
  const log = createLogger({
    level,
    destination: {
      write(line: string) {
        lines.push(line.trimEnd());
        const record = JSON.parse(line) as Record<string, unknown>;
        records.push(record);
        messages.push(
          record.msg == null ? '' : typeof record.msg === 'string' ? record.msg : JSON.stringify(record.msg),
        );
      },
    },
  });
  return { log, lines, records, messages };
}
