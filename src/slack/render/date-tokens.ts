import { slackDate } from './slack-date.js';

/**
 * An ISO 8601 time as clusters write them (`2025-02-17T10:02:11Z`, with an optional fraction, or with
 * an offset instead of `Z`). Global: use with `replace`.
 */
export const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})(?!\w)/g;

/**
 * Already neutralized mrkdwn with every ISO time in it turned into a Slack date token (pure), so a
 * message reads "at <date>" in each reader's zone instead of a raw timestamp. Only our own token
 * markup is added (the pattern matches digits, dashes, colons, `T`, `Z` and an offset's sign alone).
 */
export function withDateTokens(mrkdwn: string): string {
  return mrkdwn.replace(ISO_TIME, (iso) => slackDate(iso) ?? iso);
}
