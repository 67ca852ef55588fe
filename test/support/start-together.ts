/**
 * Start several test services at once; if any fails, stop the ones that did start before
 * rethrowing, so a failed etcd start never leaves a redis-server running.
 */
export async function startTogether<T extends readonly unknown[]>(
  starts: { [K in keyof T]: () => Promise<T[K]> },
  stopOne: (started: T[number]) => Promise<void>,
): Promise<T> {
  const settled = await Promise.allSettled(starts.map((s) => s()));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    for (const r of settled) if (r.status === 'fulfilled') await stopOne(r.value as T[number]).catch(() => undefined);
    throw failed.reason;
  }
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
