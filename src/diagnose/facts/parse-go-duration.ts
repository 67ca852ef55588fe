/**
 * A Go `metav1.Duration` as CAPI v1beta1 writes it ("5m", "5m0s", "300s", "1h30m") → seconds;
 * a number is already seconds (v1beta2 `…Seconds` fields). Anything else gives undefined, never a throw.
 */
export function parseGoDuration(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string' || !v) return undefined;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let matched = '';
  for (const m of v.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number(m[1]) * (units[m[2] as string] ?? 0);
    matched += m[0];
  }
  return matched === v ? total : undefined;
}
