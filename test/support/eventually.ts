/**
 * Re-run `probe` until `done` accepts its result, and return it; after `timeoutMs` return the last
 * result anyway, for the caller's assertion to show what it was (etcd needs an election timeout or
 * two to notice a lost quorum; a watch a moment to deliver a change). Waits for a state, never
 * asserts on timing.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 30000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
