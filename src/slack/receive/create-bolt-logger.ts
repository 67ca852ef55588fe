import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../../log/logger.js';

const RANK: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

/**
 * Bolt's logger interface over ours, so Bolt's own lines (receiver errors, listener failures, socket
 * reconnects) are JSON lines of the same stream, at LOG_LEVEL, with `component: bolt` (or the name
 * Bolt sets). Bolt passes strings and errors in any number: joined into one message.
 */
export function createBoltLogger(log: Logger, level: LogLevel): BoltLogger {
  let current = level;
  let name = 'bolt';
  const emit = (at: LogLevel, method: 'debug' | 'info' | 'warn' | 'error', parts: unknown[]) => {
    if (RANK[at] < RANK[current]) return;
    const msg = parts
      .map((p) => (typeof p === 'string' ? p : p instanceof Error ? `${p.name}: ${p.message}` : safeJson(p)))
      .join(' ');
    log[method]({ component: name }, msg);
  };
  return {
    debug: (...m: unknown[]) => emit(LogLevel.DEBUG, 'debug', m),
    info: (...m: unknown[]) => emit(LogLevel.INFO, 'info', m),
    warn: (...m: unknown[]) => emit(LogLevel.WARN, 'warn', m),
    error: (...m: unknown[]) => emit(LogLevel.ERROR, 'error', m),
    setLevel: (l: LogLevel) => void (current = l),
    getLevel: () => current,
    setName: (n: string) => void (name = n),
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
