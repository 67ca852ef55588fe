/**
 * Run a graceful stop, but give up waiting after `ms`: resolves true when it finished in time, false
 * otherwise (the caller then drops what is left). Whatever the stop still does afterwards runs
 * unobserved; bin/k8s-health.js exits shortly after the command returns, however many sockets a
 * dead Redis left open.
 */
export async function stopWithin(ms: number, stop: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      stop().then(
        () => true as const,
        () => true as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a graceful stop may take while Redis answers: SIGTERM exits within 10 s (Kubernetes allows 30). */
export const STOP_BUDGET_MS = 8_000;
/**
 * With Redis unreachable when the stop begins, in-flight work cannot finish (every step of it needs
 * Redis) and waiting the whole budget only brings the exit close to 10 s; a short wait still lets a
 * Redis that is just coming back take the last writes.
 */
export const STOP_BUDGET_REDIS_DOWN_MS = 3_000;

/** The budget for a stop beginning now. */
export function stopBudgetMs(redisDown: boolean): number {
  return redisDown ? STOP_BUDGET_REDIS_DOWN_MS : STOP_BUDGET_MS;
}
