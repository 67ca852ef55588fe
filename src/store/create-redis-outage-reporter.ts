import type { Logger } from '../log/logger.js';

/** Where a process's Redis clients report connection errors and recoveries. */
export interface RedisOutageReporter {
  /** The address the lines name (credentials redacted). */
  readonly address: string;
  /** A client failed to connect or lost its connection. */
  error(err: Error): void;
  /** A client is connected and ready. */
  ready(): void;
  /** Redis is known to be unreachable (an error since the last ready). */
  down(): boolean;
}

/**
 * One process's view of its Redis, shared by all of its clients (commands, queues, workers, fleet
 * directory): each of them retries in the background every second or two, and each failure is an
 * `error` event. Written out, that is hundreds of lines a minute; here it is one warning line when
 * Redis becomes unreachable, one more every `intervalMs` (30 s) while it stays so, and one line when
 * it is back — naming the address, never the password, and never a stack trace.
 */
export function createRedisOutageReporter(opts: {
  log: Logger;
  address: string;
  intervalMs?: number;
  now?: () => number;
}): RedisOutageReporter {
  const intervalMs = opts.intervalMs ?? 30_000;
  const now = opts.now ?? Date.now;
  let since: number | undefined;
  let lastLine = 0;
  return {
    address: opts.address,
    error(err) {
      const t = now();
      const reason = oneLine(err);
      if (since === undefined) {
        since = t;
        lastLine = t;
        opts.log.warn(
          { redis: opts.address, error: reason },
          `Redis unreachable at ${opts.address}: ${reason} (retrying in the background; /readyz answers 503 until it is back)`,
        );
      } else if (t - lastLine >= intervalMs) {
        lastLine = t;
        opts.log.warn(
          { redis: opts.address, error: reason, downSeconds: Math.round((t - since) / 1000) },
          `Redis unreachable at ${opts.address} for ${Math.round((t - since) / 1000)} s: ${reason} (still retrying)`,
        );
      }
    },
    ready() {
      if (since === undefined) return;
      opts.log.warn(
        { redis: opts.address, downSeconds: Math.round((now() - since) / 1000) },
        `Redis reachable again at ${opts.address} after ${Math.round((now() - since) / 1000)} s`,
      );
      since = undefined;
    },
    down: () => since !== undefined,
  };
}

/** An error's first line, without the stack (ioredis errors name host and port, never the password). */
function oneLine(err: Error): string {
  return (err?.message ?? String(err)).split('\n')[0]!.slice(0, 300);
}
