/** Median and p99 (nearest rank) of samples, in the samples' unit. */
export function summarize(samples: number[]): { n: number; median: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  return {
    n: s.length,
    median: s.length % 2 ? at(0.5) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2,
    p99: at(0.99),
  };
}

/** Milliseconds since `t0` (process.hrtime.bigint()). */
export function msSince(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
