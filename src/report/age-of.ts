import { formatAge } from '../diagnose/facts/age.js';

/** Age of an ISO time at `now` ("42m"), or undefined when the time is missing or unparseable. */
export function ageOf(iso: string | undefined, now: Date): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  // An unknown capture time ('' collectedAt) makes an invalid `now`: no age rather than "NaN".
  return Number.isNaN(t) || Number.isNaN(now.getTime()) ? undefined : formatAge(now.getTime() - t);
}
