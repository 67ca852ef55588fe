import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs, webApi } from '@slack/bolt';
import type { Vote, VoteOutcome } from '../../approvals/vote/apply-vote.js';
import { castVote as castVoteUseCase } from '../../approvals/vote/cast-vote.js';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnNumber as count } from '../../text/neutralize-mrkdwn.js';
import { slackDate } from '../render/slack-date.js';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { APPROVE_ACTION_ID, CONFIRM_VIEW_ID } from '../render/render-approval.js';
import { updateApprovalMessage } from '../post/update-approval-message.js';
import type { SlackDeps } from '../slack-deps.js';
import { describeError } from '../../errors/describe-error.js';
import { createRequestLogger } from '../receive/create-request-logger.js';

type ButtonArgs = Pick<SlackActionMiddlewareArgs<BlockButtonAction>, 'action' | 'ack' | 'respond' | 'body'> &
  Pick<AllMiddlewareArgs, 'client'>;

/** What the clicker is told, ephemerally, for each outcome (stored values are untrusted text: neutralized). */
const TELL: Record<VoteOutcome, (r: ApprovalRequest, why: string) => string> = {
  counted: (r) => `Your approval is counted: ${r.approvals.length} of ${count(r.required)}.`,
  approved: () =>
    'Your approval was the last one needed: the fix is queued and will run once its preconditions are re-checked live.',
  'needs-confirmation': () => 'Confirm in the dialog by typing the cluster name.',
  rejected: () => 'You rejected this fix: it is cancelled and will not run.',
  cancelled: () => 'You withdrew your proposal: it will not run.',
  expired: (r) =>
    `This request expired ${slackDate(r.expiresAt) ?? md(r.expiresAt, { max: 40 })}: nothing will run. Propose it again if it is still needed.`,
  closed: (r) =>
    `This request is already ${md(r.status, { max: 20 })}${r.result ? ` (${md(r.result, { max: 500 })})` : ''}: clicks are ignored.`,
  'self-approval': (r) => {
    const left = Math.max(0, r.required - r.approvals.length);
    return `You proposed this fix: your approval does not count. It needs ${count(left)} more approval${left === 1 ? '' : 's'} from other authorized people.`;
  },
  duplicate: (r) =>
    `You already approved this request (${r.approvals.length} of ${count(r.required)}): each approver counts once.`,
  unauthorized: (r) =>
    `You are not an authorized approver of cluster ${md(r.cluster, { max: 100 })} (config approvers.users / approvers.groups).`,
  ineligible: (_r, why) =>
    `Your vote was not recorded: your Slack account cannot approve fixes (${md(why, { max: 200 })}). Ask a workspace admin if this is wrong.`,
  unverified: (_r, why) =>
    `Your vote was not recorded: ${md(why, { max: 300 })}. Nothing changed; try again in a moment.`,
  'dry-run-failed': () =>
    'The dry run of this plan failed: it cannot be approved. Fix the cause and propose it again (Reject still cancels it).',
};

/** Approve / Reject on an approval request message. The acting user is the verified payload's. */
export async function handleApprovalVote(
  { action, ack, respond, body, client }: ButtonArgs,
  deps: SlackDeps & { approval: ApprovalDeps },
): Promise<void> {
  await ack();
  const tell = (text: string) => respond({ response_type: 'ephemeral', replace_original: false, text });
  const log = createRequestLogger(deps.log, {
    triggerId: body.trigger_id,
    user: body.user?.id,
    channel: body.channel?.id ?? body.container?.channel_id,
  });
  try {
    const id = action.value ?? '';
    // The value must be the request of the very message clicked (its block id): a value swapped for
    // another request (another cluster, another thread) is refused.
    const req = action.block_id === `approval:${id}` ? await deps.approval.approvals.get(id) : undefined;
    const channel = body.channel?.id ?? body.container?.channel_id;
    if (!req || req.thread.channel !== channel) {
      log.info({ reason: 'unknown-request' }, 'approval click refused');
      await tell('This approval request is unknown (or not from this message): nothing was recorded.');
      return;
    }
    const kind = action.action_id === APPROVE_ACTION_ID ? 'approve' : 'reject';
    const outcome = await castVote(id, { user: body.user?.id ?? '', kind }, client, { ...deps, log });
    if (outcome.outcome === 'needs-confirmation') {
      await client.views.open({ trigger_id: body.trigger_id, view: confirmView(outcome.request) });
      return;
    }
    await tell(TELL[outcome.outcome](outcome.request, outcome.why ?? ''));
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    const reason = describeError(err);
    log.error({ err }, 'approval click failed');
    await tell(`Your click could not be recorded: ${md(reason, { max: 500 })}`).catch(() => undefined);
  }
}

/**
 * Apply one vote atomically (compare-and-set over the pure policy), then: update the request
 * message, audit, and on the decisive approval enqueue the remediate job (job id = request id).
 * An authorized user other than the proposer has their Slack account re-read with users.info first
 * (check-approver-account.ts); `why` says what was wrong with it when it did not count.
 * The vote itself is the use case's (approvals/vote/cast-vote.ts); what Slack shows of it (recent
 * viewers' App Home, the request message) is done here, with the approver checks asked through this client.
 */
export async function castVote(
  id: string,
  v: Omit<Vote, 'authorized' | 'account'>,
  client: webApi.WebClient,
  deps: SlackDeps & { approval: ApprovalDeps },
): Promise<{ outcome: VoteOutcome; request: ApprovalRequest; why?: string }> {
  const { approval } = deps;
  const r = await castVoteUseCase(id, v, {
    config: deps.config,
    approvals: approval.approvals,
    audit: approval.audit,
    signer: approval.signer,
    isAuthorized: (cluster, user) => approval.isAuthorized(client, cluster, user),
    checkApprover: (user) => approval.checkApprover(client, user),
    enqueue: approval.enqueue,
    now: deps.now,
    log: deps.log,
  });
  if (r.changed) {
    await approval
      .onApprovalsChanged?.(client)
      .catch((err: unknown) => deps.log.warn({ requestId: id, err }, 'app home refresh failed'));
    await updateApprovalMessage(client, r.request, approval.signer).catch((err: unknown) =>
      deps.log.warn({ requestId: id, err }, 'approval message update failed'),
    );
  }
  return { outcome: r.outcome, request: r.request, ...(r.why ? { why: r.why } : {}) };
}

function confirmView(req: ApprovalRequest) {
  return {
    type: 'modal' as const,
    callback_id: CONFIRM_VIEW_ID,
    private_metadata: req.id,
    title: { type: 'plain_text' as const, text: 'Confirm the fix' },
    submit: { type: 'plain_text' as const, text: 'Approve and run' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      {
        type: 'section' as const,
        text: {
          type: 'mrkdwn' as const,
          text: `Yours is the last approval of *${md(req.plan.label, { max: 200 })}*. Type the cluster name to confirm.`,
          verbatim: true,
        },
      },
      {
        type: 'input' as const,
        block_id: 'cluster',
        label: { type: 'plain_text' as const, text: 'Cluster name' },
        element: { type: 'plain_text_input' as const, action_id: 'value' },
      },
    ],
  };
}
