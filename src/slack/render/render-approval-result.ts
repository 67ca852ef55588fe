import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnCode, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import { proposeFixActionId } from '../action-ids.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

/**
 * The thread reply after a run: the outcome, the backup (full object in a code block, shortened to
 * fit; the whole object stays in Redis) and, when the action can be undone, a button proposing the
 * undo — itself a new approval-gated proposal (its value is an opaque proposal id). The label,
 * result and backup came from the cluster (the backup is the object as the API server returned it):
 * neutralized, the backup inside its code block (neutralizeMrkdwnCode: it cannot close the block).
 */
export function renderApprovalResult(req: ApprovalRequest, extra: { backup?: { what: string; json: string }; undo?: { label: string; proposalId: string } } = {}): SlackMessage {
  const outcome = md(req.result ?? req.status, { max: 1500 });
  const blocks: types.KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${md(req.plan.label, { max: 200 })}*: ${outcome}` } }];
  if (extra.backup) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Backup of ${md(extra.backup.what, { max: 200 })}* (stored in Redis before the change):\n\`\`\`${neutralizeMrkdwnCode(extra.backup.json, { max: 2600 })}\`\`\`` } });
  }
  if (extra.undo) {
    blocks.push({ type: 'actions', block_id: `undo:${req.id}`.slice(0, 255), elements: [{ type: 'button', action_id: proposeFixActionId(0), text: { type: 'plain_text', text: neutralizeSlackPlainText(extra.undo.label, { max: 75 }) }, value: extra.undo.proposalId }] });
  }
  // The id stays out of the prose: one small context line, last.
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `outcome of request ${neutralizeMrkdwnId(req.id)}` }] });
  return clampBlocks({ text: `${md(`${req.cluster}: ${req.plan.label}`, { max: 300 })}: ${outcome}`, blocks });
}
