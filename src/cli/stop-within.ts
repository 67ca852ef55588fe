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
