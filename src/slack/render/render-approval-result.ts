import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { proposeFixActionId, SHOW_BACKUP_ACTION_ID } from '../action-ids.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

/**
 * The thread reply after a run, a few lines on a phone: the outcome, one line saying what was backed
 * up, and a row of buttons — **Show backup** (the stored object, to the clicker alone: handle-show-backup.ts;
 * its value is the request id) and, when the action can be undone, one proposing the undo — itself a
 * new approval-gated proposal (its value is an opaque proposal id). The label,
 * result and backup came from the cluster (the backup is the object as the API server returned it):
 * neutralized, the backup inside its code block (neutralizeMrkdwnCode: it cannot close the block).
 */
export function renderApprovalResult(
  req: ApprovalRequest,
  extra: { backup?: { what: string; json: string }; undo?: { label: string; proposalId: string } } = {},
): SlackMessage {
  const outcome = md(req.result ?? req.status, { max: 1500 });
  const blocks: types.KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${md(req.plan.label, { max: 200 })}*: ${outcome}` } },
  ];
  if (extra.backup) {
    const lines = extra.backup.json.split('\n').length;
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `:floppy_disk: Backup of ${md(extra.backup.what, { max: 200 })} stored before the change (${lines} line${lines === 1 ? '' : 's'} of JSON)`,
        },
      ],
    });
  }
  const buttons: types.Button[] = [];
  if (extra.undo)
    buttons.push({
      type: 'button',
      action_id: proposeFixActionId(0),
      text: { type: 'plain_text', text: neutralizeSlackPlainText(extra.undo.label, { max: 75 }) },
      value: extra.undo.proposalId,
    });
  if (extra.backup)
    buttons.push({
      type: 'button',
      action_id: SHOW_BACKUP_ACTION_ID,
      text: { type: 'plain_text', text: 'Show backup' },
      value: req.id,
    });
  if (buttons.length) blocks.push({ type: 'actions', block_id: `undo:${req.id}`.slice(0, 255), elements: buttons });
  // The id stays out of the prose: one small context line, last.
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `outcome of request ${neutralizeMrkdwnId(req.id)}` }],
  });
  return clampBlocks({ text: `${md(`${req.cluster}: ${req.plan.label}`, { max: 300 })}: ${outcome}`, blocks });
}
