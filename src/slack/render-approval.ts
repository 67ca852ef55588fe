import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../remediate/approval-request.js';
import type { RemediationPlan } from '../remediate/remediation-plan.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnCode, neutralizeMrkdwnId, neutralizeSlackPlainText } from '../text/neutralize-mrkdwn.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { mentionUser } from './mention-user.js';

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
 * The request is read back from Redis and its plan, dry run and result carry text from the cluster
 * and from API errors: every such value is neutralized (text/neutralize-mrkdwn.ts) and user ids
 * become mentions only when they are user ids (mention-user.ts).
 */
export function renderApproval(req: ApprovalRequest): SlackMessage {
  const p = req.plan;
  const who = req.approvals.map((a) => mentionUser(a.user)).join(', ');
  const tally = `${req.approvals.length} of ${req.required} approvals${who ? `: ${who}` : ''}`;
  const status = STATUS_LINE[req.status] ?? md(req.status, { max: 20 });
  const expires = Date.parse(req.expiresAt);
  // <!date^…> is Slack's own markup: only ever built from a number and our ISO rendering of it.
  const expiry = Number.isFinite(expires) ? `<!date^${Math.floor(expires / 1000)}^{date_short_pretty} {time}|${new Date(expires).toISOString()}>` : md(req.expiresAt, { max: 40 });
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `Fix proposed on ${neutralizeSlackPlainText(`${req.cluster}: ${p.label}`, { max: 120 })}`, emoji: true } },
    ...renderPlanBlocks(p),
    { type: 'section', text: { type: 'mrkdwn', text: `*Dry run:* ${md(req.dryRun, { max: 1500 })}` } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `Proposed by ${mentionUser(req.proposer)} · expires ${expiry} · plan ${neutralizeMrkdwnId(String(req.hash).slice(0, 12))} · request ${neutralizeMrkdwnId(req.id)}` }],
    },
    { type: 'section', text: { type: 'mrkdwn', text: `${status} · *${tally}*${req.decidedBy ? ` · by ${mentionUser(req.decidedBy.user)}` : ''}${req.result ? `\n${md(req.result, { max: 1500 })}` : ''}` } },
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
  return clampBlocks({ text: `${md(`${req.cluster}: ${p.label}`, { max: 300 })} — ${status.replace(/^:[a-z_]+: /, '')} (${tally})`, blocks });
}

/**
 * What a plan does, its calls and preconditions, and its risk (also used for the refusal preview).
 * API calls go in a code block one per line, each neutralized on its own (a call cannot add a line
 * or close the block); the rest is neutralized mrkdwn.
 */
export function renderPlanBlocks(p: RemediationPlan): KnownBlock[] {
  const params = Object.entries(p.params).map(([k, v]) => `${k}=${v}`).join(' ');
  const calls = p.apiCalls.map((c) => neutralizeMrkdwnCode(neutralizePlainText(c), { max: 500 })).join('\n');
  return [
    { type: 'section', text: { type: 'mrkdwn', text: `*What:* \`${md(p.action, { max: 60 })}\` ${md(params, { max: 500 })}\n*API calls, in order:*\n\`\`\`${calls || ' '}\`\`\`` } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Re-checked live right before executing:*\n${p.preconditions.map((c) => `• ${md(c.text, { max: 300 })}${c.recorded !== undefined ? ` (recorded: ${md(c.recorded, { max: 100 })})` : ''}`).join('\n')}` } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Risk:* ${md(p.risk, { max: 500 })}` } },
  ];
}
