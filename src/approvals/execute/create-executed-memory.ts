/**
 * Request ids this process has executed, remembered in memory ("not executed before").
 *
 * The executed marker (`approvals:executed:<id>`, SET NX) lives in Redis, and a Redis writer can delete
 * it and reset a request to `approved`. The signature, the sealed votes and the execution deadline still
 * hold then, and the pinned preconditions stop most replays — but not one whose recorded state has come
 * back meanwhile (a `deployment.scale` to 0 replayed after its undo scaled the Deployment back to the
 * recorded 3). This memory is what Redis cannot reach: a request this remediation worker ran is never run
 * by it again. It needs to outlive only the execution deadline (at most 24 hours, config-schema.ts): past
 * it the executor refuses the request anyway. Bounded in size; the oldest ids go first.
 */
export interface ExecutedMemory {
  /** Has this process executed (started executing) this request? */
  has(requestId: string): boolean;
  /** Remember that this process starts executing this request. */
  add(requestId: string): void;
}

/** Longer than the longest execution deadline the config accepts (24 hours). */
const KEEP_MS = 25 * 3600_000;
const MAX_IDS = 100_000;

export function createExecutedMemory(now: () => number = Date.now): ExecutedMemory {
  // Insertion order is execution order: the first entries are the oldest.
  const ran = new Map<string, number>();
  const prune = () => {
    const cutoff = now() - KEEP_MS;
    for (const [id, at] of ran) {
      if (at >= cutoff && ran.size <= MAX_IDS) break;
      ran.delete(id);
    }
  };
  return {
    has(requestId) {
      prune();
      return ran.has(requestId);
    },
    add(requestId) {
      ran.delete(requestId);
      ran.set(requestId, now());
      prune();
    },
  };
}
