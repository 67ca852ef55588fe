import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../remediate/approval-request.js';
import { proposeFixActionId } from './action-ids.js';
import { clampBlocks, truncate, type SlackMessage } from './clamp-blocks.js';

/**
 * The thread reply after a run: the outcome, the backup (full object in a code block, shortened to
 * fit; the whole object stays in Redis) and, when the action can be undone, a button proposing the
 * undo — itself a new approval-gated proposal (its value is an opaque proposal id).
 */
export function renderApprovalResult(req: ApprovalRequest, extra: { backup?: { what: string; json: string }; undo?: { label: string; proposalId: string } } = {}): SlackMessage {
  const blocks: types.KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${req.plan.label}* (request ${req.id}): ${req.result ?? req.status}` } }];
  if (extra.backup) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `*Backup of ${extra.backup.what}* (stored in Redis before the change):\n\`\`\`${truncate(extra.backup.json, 2800)}\`\`\`` } });
  }
  if (extra.undo) {
    blocks.push({ type: 'actions', block_id: `undo:${req.id}`, elements: [{ type: 'button', action_id: proposeFixActionId(0), text: { type: 'plain_text', text: extra.undo.label }, value: extra.undo.proposalId }] });
  }
  return clampBlocks({ text: `${req.cluster}: ${req.plan.label}: ${req.result ?? req.status}`, blocks });
}
