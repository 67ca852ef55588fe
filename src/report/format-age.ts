import { formatAge } from '../diagnose/facts/age.js';

/** Age of an ISO time at `now` ("42m"), or undefined when the time is missing or unparseable. */
export function ageOf(iso: string | undefined, now: Date): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : formatAge(now.getTime() - t);
}
