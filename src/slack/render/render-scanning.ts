import type { SectionId } from '../../diagnose/finding.js';
import { SECTION_TITLES } from '../../diagnose/finding.js';
import { neutralizeMrkdwn as md, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

/** The first answer when a cluster was never scanned: updated in place when the report lands. */
export function renderScanning(cluster: string, section?: SectionId): SlackMessage {
  const title = `${neutralizeSlackPlainText(cluster, { max: 100 })}${section ? ` · ${SECTION_TITLES[section]}` : ''}: scanning…`;
  return clampBlocks({
    text: `${md(cluster, { max: 100 })}: scanning…`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: ':hourglass_flowing_sand: No stored report yet — scanning now; this message updates when the report lands.',
          },
        ],
      },
    ],
  });
}

/**
 * The scanning message when the scan failed and there is no earlier report to fall back on (the error is untrusted
 * text).
 */
export function renderScanFailed(cluster: string, error: string): SlackMessage {
  return clampBlocks({
    text: `${md(cluster, { max: 100 })}: scan failed: ${md(error, { max: 1000 })}`,
    blocks: [
      {
        type: 'header',
        text: { type: 'plain_text', text: `${neutralizeSlackPlainText(cluster, { max: 100 })}: unknown`, emoji: true },
      },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `:x: Scan failed and no earlier report is stored: ${md(error, { max: 1000 })}` },
      },
    ],
  });
}
