import { ISO_TIME } from './date-tokens.js';

/**
 * A finding's text without its " since <ISO time>" clause when that time is `since` (to the minute),
 * which the message states already as its own "since <date>" (pure): "MachineDeployment md-0 is paused
 * since 2025-03-07T14:00:00Z" reads "MachineDeployment md-0 is paused" next to "since <date>". Any other
 * time stays (and is turned into a date token or a short time by the caller).
 */
export function withoutRestatedSince(text: string, since: string | undefined): string {
  const at = since ? Date.parse(since) : NaN;
  if (Number.isNaN(at)) return text;
  const minute = Math.floor(at / 60_000);
  return text.replace(new RegExp(`\\s*\\(?\\bsince (${ISO_TIME.source})\\)?`, 'g'), (all: string, iso: string) => {
    const t = Date.parse(iso);
    // Only a whole "(since …)" or a bare "since …" goes: half a parenthesis would be left dangling.
    const balanced = all.trimStart().startsWith('(') === all.endsWith(')');
    return !Number.isNaN(t) && Math.floor(t / 60_000) === minute && balanced ? '' : all;
  });
}
