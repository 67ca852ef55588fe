import { neutralizeMrkdwn } from '../../text/neutralize-mrkdwn.js';
import { atScanTime } from './at-scan-time.js';
import { withDateTokens } from './date-tokens.js';

/**
 * Cluster text as a mrkdwn sentence (neutralized): ages restated as before the scan, every ISO time a
 * Slack date token (each reader's zone), and an "about" tilde said in words ("~10:02" reads "about
 * 10:02") rather than defused into a look-alike character.
 */
export function mrkdwnSentence(text: string, max: number): string {
  return withDateTokens(neutralizeMrkdwn(atScanTime(text).replace(/~(?=\d)/g, 'about '), { max }));
}
