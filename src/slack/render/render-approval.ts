import type { types } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import type { RemediationPlan } from '../../approvals/remediation-plan.js';
import {
  neutralizeMrkdwn as md,
  neutralizeMrkdwnCode,
  neutralizeMrkdwnId,
  neutralizeMrkdwnNumber as count,
  neutralizeSlackPlainText,
} from '../../text/neutralize-mrkdwn.js';
import { neutralizePlainText } from '../../text/neutralize-plain-text.js';
import { clampBlocks, type SlackMessage } from './clamp-blocks.js';
import { mentionUser } from './mention-user.js';
import { slackDate } from './slack-date.js';
import { blastRadiusLine, describeBlastRadius } from './describe-blast-radius.js';
import { UNDO_OF } from './describe-undo.js';

type KnownBlock = types.KnownBlock;

// The approval ids are listed with every other action id (slack/action-ids.ts); re-exported for the renderer's readers.
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../action-ids.js';
export { APPROVE_ACTION_ID, CONFIRM_VIEW_ID, REJECT_ACTION_ID } from '../action-ids.js';

/**
 * The state of a request as its message shows it: the header's words and its colour (the
 * emoji leading the header: yellow waiting, blue running, green done, red failed or refused, white
 * expired). The fallback text and the TELL lines use the same words.
 */
export const APPROVAL_STATE: Record<
  ApprovalRequest['status'],
  { colour: string; words: (req: ApprovalRequest) => string }
> = {
  pending: {
    colour: ':large_yellow_circle:',
    words: (r) =>
      r.dryRunOk === false
        ? 'Dry run failed: cannot be approved'
        : `Waiting for ${count(Math.max(0, r.required - r.approvals.length))} more of ${count(r.required)} approvals`,
  },
  approved: { colour: ':large_green_circle:', words: () => 'Approved: queued to run' },
  executing: { colour: ':large_blue_circle:', words: () => 'Running' },
  succeeded: { colour: ':large_green_circle:', words: () => 'Executed' },
  failed: { colour: ':red_circle:', words: () => 'Failed' },
  aborted: { colour: ':red_circle:', words: () => 'Aborted before any change' },
  interrupted: { colour: ':large_orange_circle:', words: () => 'Interrupted' },
  rejected: { colour: ':red_circle:', words: () => 'Rejected' },
  cancelled: { colour: ':white_circle:', words: () => 'Cancelled by the proposer' },
  expired: { colour: ':white_circle:', words: () => 'Expired' },
};

/**
 * The approval request message in the thread, state and buttons first: a header whose words
 * and colour follow the state ("Waiting for 1 more of 2 approvals", "Running", "Executed", …), then
 * Approve (primary) and Reject (danger), each behind a confirm dialog, while it is pending — a failed
 * dry run keeps only Reject, and says why; every other state has no buttons. Then: the fix and cluster,
 * who may approve (the cluster's approver users and groups), who approved so far, who proposed, the
 * expiry, the outcome; the dry-run result; the blast radius (objects and namespaces the plan writes);
 * the undo; then the exact calls, preconditions and risk; plan hash and request id last, small.
 * Every time is a Slack date token (never an age: the message is edited on every transition).
 * Re-rendered (chat.update) on every vote and transition. The request is read back from Redis and its
 * plan, dry run and result carry text from the cluster and from API errors: every such value is
 * neutralized (text/neutralize-mrkdwn.ts) and user ids become mentions only when they are user ids
 * (mention-user.ts), group ids only when they are group ids.
 */
export function renderApproval(req: ApprovalRequest): SlackMessage {
  const p = req.plan;
  const state = Object.hasOwn(APPROVAL_STATE, req.status)
    ? APPROVAL_STATE[req.status]
    : { colour: ':white_circle:', words: () => md(req.status, { max: 20 }) };
  const words = state.words(req);
  const who = req.approvals.map((a) => mentionUser(a.user)).join(', ');
  // `required` is read back from Redis like everything else: a number is shown, anything else neutralized.
  const tally = `${req.approvals.length} of ${count(req.required)} approvals${who ? `: ${who}` : ''}`;
  const expiry = slackDate(req.expiresAt) ?? 'an unknown time';
  const colour = req.status === 'pending' && req.dryRunOk === false ? ':red_circle:' : state.colour;
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: `${colour} ${words}`, emoji: true } },
  ];
  if (req.status === 'pending') {
    // A plan whose dry run failed cannot be approved: it keeps only Reject, and says why.
    const approvable = req.dryRunOk !== false;
    const target = neutralizeSlackPlainText(`${p.label} on ${req.cluster}`, { max: 200 });
    const left = Math.max(0, req.required - req.approvals.length);
    blocks.push({
      type: 'actions',
      block_id: `approval:${req.id}`.slice(0, 255),
      elements: [
        ...(approvable
          ? [
              {
                type: 'button' as const,
                action_id: APPROVE_ACTION_ID,
                style: 'primary' as const,
                text: { type: 'plain_text' as const, text: 'Approve' },
                value: req.id,
                confirm: {
                  title: { type: 'plain_text' as const, text: 'Approve this fix?' },
                  text: {
                    type: 'plain_text' as const,
                    text: `${target}. ${left <= 1 ? 'One more approval is needed: if you are not its proposer, yours is it, and it runs once its preconditions are re-checked live.' : `It needs ${count(left)} more approvals from people other than its proposer before it runs.`}`,
                  },
                  confirm: { type: 'plain_text' as const, text: 'Approve' },
                  deny: { type: 'plain_text' as const, text: 'Cancel' },
                  style: 'primary' as const,
                },
              },
            ]
          : []),
        {
          type: 'button',
          action_id: REJECT_ACTION_ID,
          style: 'danger',
          text: { type: 'plain_text', text: 'Reject' },
          value: req.id,
          confirm: {
            title: { type: 'plain_text', text: 'Reject this fix?' },
            text: { type: 'plain_text', text: `${target}. It is cancelled for everyone and will not run.` },
            confirm: { type: 'plain_text', text: 'Reject' },
            deny: { type: 'plain_text', text: 'Cancel' },
            style: 'danger',
          },
        },
      ],
    });
    if (!approvable)
      blocks.push({
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: ':no_entry: The dry run failed, so this plan cannot be approved: fix the cause and propose it again.',
          },
        ],
      });
  }
  const people = [`*${md(p.label, { max: 200 })}* on *${md(req.cluster, { max: 100 })}*`, `*Approvals:* ${tally}`];
  if (req.status === 'pending') people.push(`*Who may approve:* ${describeApprovers(req)}`);
  people.push(
    `Proposed by ${mentionUser(req.proposer)} ${slackDate(req.createdAt) ?? ''} · ${req.status === 'pending' ? 'expires' : 'was to expire'} ${expiry}`.replace(
      / {2,}/g,
      ' ',
    ),
  );
  if (req.decidedBy)
    people.push(
      `${req.status === 'cancelled' ? 'Withdrawn' : 'Decided'} by ${mentionUser(req.decidedBy.user)} ${slackDate(req.decidedBy.at) ?? ''}`.trimEnd(),
    );
  const ended = [...req.transitions].reverse().find((t) => t.status === req.status);
  if (req.result)
    people.push(
      `*Outcome:* ${md(req.result, { max: 1500 })}${ended && req.status !== 'pending' ? ` (${slackDate(ended.at) ?? ''})` : ''}`.replace(
        ' ()',
        '',
      ),
    );
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: people.join('\n') } });
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: [
        `*Dry run:* ${md(req.dryRun, { max: 1500 })}`,
        `*Blast radius:* ${md(blastRadiusLine(describeBlastRadius(p)), { max: 800 })}`,
        `*Undo:* ${Object.hasOwn(UNDO_OF, p.action) ? UNDO_OF[p.action] : 'unknown for this action.'}`,
      ].join('\n'),
    },
  });
  blocks.push(...renderPlanBlocks(p));
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `action ${neutralizeMrkdwnId(p.action)} · plan ${neutralizeMrkdwnId(String(req.hash).slice(0, 12))} · request ${neutralizeMrkdwnId(req.id)}`,
      },
    ],
  });
  return clampBlocks({ text: `${md(`${req.cluster}: ${p.label}`, { max: 300 })} — ${words} (${tally})`, blocks });
}

/**
 * "<@U1>, <!subteam^S1>" from the approvers the request was proposed with; ids that are not Slack ids are shown inert.
 */
function describeApprovers(req: ApprovalRequest): string {
  // Read back from Redis like the rest of the request: anything but arrays of ids is shown inert or not at all.
  // The proposer's own approval never counts: never listed among those who may approve.
  const users: unknown[] = (Array.isArray(req.approvers?.users) ? req.approvers.users : []).filter(
    (u) => u !== req.proposer,
  );
  const groups: unknown[] = Array.isArray(req.approvers?.groups) ? req.approvers.groups : [];
  if (users.length + groups.length === 0) return 'the approvers configured for this cluster, other than its proposer';
  if (groups.length > 0)
    return `${[...users.map((u) => mentionUser(u)), ...groups.map((g) => (typeof g === 'string' && /^S[A-Z0-9]{2,20}$/.test(g) ? `<!subteam^${g}>` : neutralizeMrkdwnId(g)))].slice(0, 20).join(', ')} (not its proposer)`;
  const shown = groups.map((g) =>
    typeof g === 'string' && /^S[A-Z0-9]{2,20}$/.test(g) ? `<!subteam^${g}>` : neutralizeMrkdwnId(g),
  );
  return [...users.map((u) => mentionUser(u)), ...shown].slice(0, 20).join(', ');
}

/**
 * What a plan does, its calls and preconditions, and its risk (also used for the refusal preview).
 * API calls go in a code block one per line, each neutralized on its own (a call cannot add a line
 * or close the block); the rest is neutralized mrkdwn.
 */
export function renderPlanBlocks(p: RemediationPlan): KnownBlock[] {
  const params = Object.entries(p.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const calls = p.apiCalls.map((c) => neutralizeMrkdwnCode(neutralizePlainText(c), { max: 500 })).join('\n');
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*What:* ${md(params, { max: 500 })}\n*API calls, in order:*\n\`\`\`${calls || ' '}\`\`\``,
      },
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*Re-checked live right before executing:*\n${p.preconditions.map((c) => `• ${md(c.text, { max: 300 })}${c.recorded !== undefined ? ` (recorded: ${md(c.recorded, { max: 100 })})` : ''}`).join('\n')}`,
      },
    },
    { type: 'section', text: { type: 'mrkdwn', text: `*Risk:* ${md(p.risk, { max: 500 })}` } },
  ];
}
