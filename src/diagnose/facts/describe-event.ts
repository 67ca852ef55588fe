import type { EventProjection } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';

/**
 * One evidence line quoting an event with its count and timing:
 * `Event DetectedUnhealthy x23 over 5m10s (last 14s ago) from machinehealthcheck-controller: "…"`.
 */
export function describeEvent(e: EventProjection, now: Date): string {
  let line = `Event ${e.reason ?? '<no reason>'}`;
  if (e.count > 1) {
    line += ` x${e.count}`;
    const first = e.firstTimestamp ? Date.parse(e.firstTimestamp) : NaN;
    const last = e.lastTimestamp ? Date.parse(e.lastTimestamp) : NaN;
    if (!Number.isNaN(first) && !Number.isNaN(last)) line += ` over ${formatAge(last - first)}`;
  }
  const lastAge = ageMinutes(e.lastTimestamp ?? e.firstTimestamp, now);
  if (lastAge !== undefined) line += ` (last ${formatAge(lastAge * 60000)} ago)`;
  if (e.source) line += ` from ${e.source}`;
  return `${line}: "${e.message ?? ''}"`;
}
