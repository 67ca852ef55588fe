import { ISO_TIME } from './date-tokens.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Plain text (a header, a button) with every ISO time in it said short, in UTC: "7 Mar 14:00 UTC", with
 * the year when it is not the year of `ref` (pure). plain_text cannot hold a Slack date token, and an
 * age ("for 3 d") would go stale in a message that is edited later.
 */
export function withShortTimes(text: string, ref?: string): string {
  const refYear = ref ? new Date(Date.parse(ref)).getUTCFullYear() : undefined;
  return text.replace(ISO_TIME, (iso) => {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return iso;
    const d = new Date(t);
    const year = refYear === undefined || refYear === d.getUTCFullYear() ? '' : ` ${d.getUTCFullYear()}`;
    const hm = d.toISOString().slice(11, 16);
    return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}${year} ${hm} UTC`;
  });
}
