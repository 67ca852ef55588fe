import type { StoredBackup } from '../../approvals/approval-stores.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnCode, neutralizeMrkdwnId } from '../../text/neutralize-mrkdwn.js';
import type { SlackMessage } from './clamp-blocks.js';
import { clampBlocks } from './clamp-blocks.js';
import { slackDate } from './slack-date.js';

/** Characters of the backup shown (Slack's 3,000 per section, with room for the line above it). */
const SHOWN = 2600;

/**
 * A stored backup as "Show backup" shows it to the clicker (pure): what, when and by which request,
 * then the object in a code block, cut to fit (the whole object stays in Redis for a restore). The
 * object came from the cluster: neutralized inside its code block (it cannot close the block).
 */
export function renderBackup(
  backup: Pick<StoredBackup, 'what' | 'object' | 'savedAt'>,
  requestId: string,
): SlackMessage {
  const json = JSON.stringify(backup.object, null, 2);
  const cut =
    json.length > SHOWN
      ? ` — the first ${SHOWN} of ${json.length} characters; the whole object stays in Redis for a restore`
      : '';
  return clampBlocks({
    text: `Backup of ${md(backup.what, { max: 200 })}`,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*Backup of ${md(backup.what, { max: 200 })}*, stored ${slackDate(backup.savedAt) ?? 'before the change'} by request ${neutralizeMrkdwnId(requestId)}${cut}:\n\`\`\`${neutralizeMrkdwnCode(json.slice(0, SHOWN), { max: SHOWN })}\`\`\``,
        },
      },
    ],
  });
}
