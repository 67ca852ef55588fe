/**
 * Re-run `probe` until `done` accepts its result (etcd needs an election timeout or two to notice a
 * lost quorum or a returning member). Waits for a state, never asserts on timing.
 */
export async function eventually<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 30000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}
