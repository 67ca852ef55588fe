import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../remediate/approval-request.js';
import type { RemediationPlan } from '../remediate/remediation-plan.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';

type KnownBlock = types.KnownBlock;

/** Action ids of the approval buttons and the confirmation modal (values: the opaque request id only). */
export const APPROVE_ACTION_ID = 'k8s-health.approval.approve';
export const REJECT_ACTION_ID = 'k8s-health.approval.reject';
export const CONFIRM_VIEW_ID = 'k8s-health.approval.confirm';

const STATUS_LINE: Record<ApprovalRequest['status'], string> = {
  pending: ':hourglass_flowing_sand: Waiting for approvals',
  approved: ':white_check_mark: Approved — queued for execution',
  executing: ':gear: Executing',
  succeeded: ':white_check_mark: Executed',
  failed: ':x: Failed',
  aborted: ':no_entry: Aborted',
  interrupted: ':warning: Interrupted',
  rejected: ':no_entry_sign: Rejected',
  cancelled: ':no_entry_sign: Cancelled by the proposer',
  expired: ':alarm_clock: Expired',
};

/**
 * The approval request message in the thread: what will be done, the exact API calls, the
 * preconditions, the dry-run result, risk, proposer, expiry, "N of M approvals: <@U…>", and
 * Approve / Reject while it is pending. Re-rendered (chat.update) on every vote and transition.
 */
export function renderApproval(req: ApprovalRequest): SlackMessage {
  const p = req.plan;
  const who = req.approvals.map((a) => `<@${a.user}>`).join(', ');
  const tally = `${req.approvals.length} of ${req.required} approvals${who ? `: ${who}` : ''}`;
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `Fix proposed on ${req.cluster}: ${p.label}`, emoji: true } },
    ...renderPlanBlocks(p),
    { type: 'section', text: { type: 'mrkdwn', text: `*Dry run:* ${escape(req.dryRun)}` } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `Proposed by <@${req.proposer}> · expires <!date^${Math.floor(Date.parse(req.expiresAt) / 1000)}^{date_short_pretty} {time}|${req.expiresAt}> · plan ${req.hash.slice(0, 12)} · request ${req.id}` }],
    },
    { type: 'section', text: { type: 'mrkdwn', text: `${STATUS_LINE[req.status]} · *${tally}*${req.decidedBy ? ` · by <@${req.decidedBy.user}>` : ''}${req.result ? `\n${escape(req.result)}` : ''}` } },
  ];
  if (req.status === 'pending') {
    // A plan whose dry run failed cannot be approved (issue 14): it keeps only Reject, and says why.
    const approvable = req.dryRunOk !== false;
    if (!approvable) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: ':no_entry: The dry run failed, so this plan cannot be approved: fix the cause and propose it again.' }] });
    blocks.push({
      type: 'actions',
      block_id: `approval:${req.id}`,
      elements: [
        ...(approvable ? [{ type: 'button' as const, action_id: APPROVE_ACTION_ID, style: 'primary' as const, text: { type: 'plain_text' as const, text: 'Approve' }, value: req.id }] : []),
        { type: 'button', action_id: REJECT_ACTION_ID, style: 'danger', text: { type: 'plain_text', text: 'Reject' }, value: req.id },
      ],
    });
  }
  return clampBlocks({ text: `${req.cluster}: ${p.label} — ${STATUS_LINE[req.status].replace(/^:[a-z_]+: /, '')} (${tally})`, blocks });
}

/** What a plan does, its calls and preconditions, and its risk (also used for the refusal preview). */
export function renderPlanBlocks(p: RemediationPlan): KnownBlock[] {
  const params = Object.entries(p.params).map(([k, v]) => `${k}=${v}`).join(' ');
  return [
    { type: 'section', text: { type: 'mrkdwn', text: `*What:* \`${p.action}\` ${escape(params)}\n*API calls, in order:*\n\`\`\`${p.apiCalls.join('\n')}\`\`\`` } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Re-checked live right before executing:*\n${p.preconditions.map((c) => `• ${escape(c.text)}${c.recorded !== undefined ? ` (recorded: ${escape(String(c.recorded))})` : ''}`).join('\n')}` } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Risk:* ${escape(p.risk)}` } },
  ];
}

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
