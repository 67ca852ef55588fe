import type { BlockButtonAction, BlockOverflowAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { findAction } from '../../approvals/actions/index.js';
import { signProposalClick, type ProposalClick } from '../../approvals/request/sign-proposal-click.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import { clampBlocks } from '../render/clamp-blocks.js';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { renderPlanBlocks } from '../render/render-approval.js';
import { renderProposalRefusal } from '../render/render-proposal-refusal.js';
import type { SlackDeps } from '../slack-deps.js';
import { describeError } from '../../errors/describe-error.js';
import { createRequestLogger } from '../receive/create-request-logger.js';

type ButtonArgs = Pick<
  SlackActionMiddlewareArgs<BlockButtonAction | BlockOverflowAction>,
  'action' | 'ack' | 'respond' | 'body'
>;

/**
 * A click on a proposed-fix button in `serve` (planned by the remediation worker, which
 * holds the credential). `serve` never reads a cluster for it. Numbered flow:
 * 1. ack; the button value is an opaque proposal id; unknown, or for a cluster this channel may not use → refused;
 * 2. a dump-backed cluster, or one without remediation.enabled, is refused ephemerally — showing what
 *    the plan would do (built from the proposal alone, no cluster read);
 * 3. without K8S_HEALTH_PLAN_SECRET nothing is proposed (one line naming it);
 * 4. the clicker is told at once that the plan is being prepared, and the click (sealed with the
 *    secret: proposer, channel, thread) goes to the `remediate` worker kind on `k8s-health-propose`
 *    (approvals/request/propose-fix.ts plans, dry-runs, signs, posts the request in the thread and audits it,
 *    or tells the clicker why not);
 * 5. no worker finishing it in time (none running) is said, not left silent.
 * Labels, plan text and error messages in the ephemeral replies are untrusted text: neutralized.
 */
export async function handleProposeFix(
  { action: clicked, ack, respond, body }: ButtonArgs,
  deps: SlackDeps & { approval?: ApprovalDeps },
): Promise<void> {
  await ack();
  // A fix button carries its proposal id as its value; a fix in the overflow menu as its option's value.
  const action = { value: clicked.type === 'overflow' ? clicked.selected_option?.value : clicked.value };
  const user = body.user?.id ?? '';
  const log = createRequestLogger(deps.log, {
    triggerId: body.trigger_id,
    user,
    channel: body.channel?.id ?? body.container?.channel_id,
  });
  const reply = (text: string, blocks?: ReturnType<typeof renderPlanBlocks>) =>
    respond({
      response_type: 'ephemeral',
      replace_original: false,
      text,
      ...(blocks
        ? clampBlocks({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, ...blocks] })
        : {}),
    });
  try {
    const stored = action.value ? await deps.proposals.get(action.value) : undefined;
    const cluster = stored && deps.config.clusters.find((c) => c.name === stored.cluster);
    const channel = body.channel?.id ?? body.container?.channel_id ?? '';
    if (
      !user ||
      !stored ||
      !cluster ||
      (cluster.slack.channels.length > 0 && !cluster.slack.channels.includes(channel))
    ) {
      log.info({ reason: 'unknown-proposal' }, 'propose-fix refused');
      await reply(renderProposalRefusal({ reason: 'unknown-proposal' }));
      return;
    }
    const a = findAction(stored.proposal.action);
    const approval = deps.approval;
    if (cluster.dump || !cluster.remediation.enabled || !approval) {
      const preview = await a.plan(cluster.name, stored.proposal.params);
      const name = md(cluster.name, { max: 100 });
      const why = cluster.dump
        ? `cluster \`${name}\` is dump-backed (read-only): it can never be remediated`
        : !cluster.remediation.enabled
          ? `remediation is not enabled for cluster \`${name}\` (set remediation.enabled: true for it in the config)`
          : 'the approval flow is not running in this process';
      log.info(
        { cluster: cluster.name, action: a.id, reason: cluster.dump ? 'dump' : 'disabled' },
        'propose-fix refused',
      );
      await reply(
        `Not proposed: ${why}. This is what *${md(stored.proposal.label, { max: 200 })}* would do:`,
        renderPlanBlocks(preview),
      );
      return;
    }

    // The click is sealed with K8S_HEALTH_PLAN_SECRET: without it nothing is proposed (one line,
    // naming the variable); the preview above for dump-backed and disabled clusters needs no secret.
    if (!approval.signer.ready) {
      log.warn({ cluster: cluster.name, action: a.id, reason: 'no-plan-secret' }, 'propose-fix refused');
      await reply(renderProposalRefusal({ reason: 'no-secret', detail: approval.signer.problem! }));
      return;
    }
    const now = deps.now();
    const messageTs = body.container?.message_ts ?? body.message?.ts ?? '';
    const click: ProposalClick = {
      proposalId: action.value!,
      user,
      channel,
      threadTs: String(body.message?.thread_ts ?? messageTs),
      messageTs: String(messageTs),
      clickedAt: now.toISOString(),
    };
    await reply(
      `:hourglass_flowing_sand: Preparing the plan for *${md(stored.proposal.label, { max: 200 })}*: the remediation worker reads the cluster and dry-runs it; the approval request will appear in this thread.`,
    );
    const result = await approval.requestProposal({ click, sig: signProposalClick(click, approval.signer) });
    if (result.status === 'timeout') {
      const seconds = Math.round(result.waitedMs / 1000);
      log.warn({ cluster: cluster.name, action: a.id, started: result.started }, 'propose-fix timed out');
      await reply(
        result.started
          ? `The remediation worker is still preparing *${md(stored.proposal.label, { max: 200 })}* after ${seconds} s: the approval request will appear in this thread when it is ready.`
          : `Not proposed: no remediation worker took this click within ${seconds} s — is a k8s-health worker process with the remediate worker running (\`worker --only remediate\`)? Click again once it is.`,
      );
    }
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    const reason = describeError(err);
    log.error({ err }, 'propose-fix click failed');
    await reply(renderProposalRefusal({ reason: 'error', detail: reason })).catch(() => undefined);
  }
}
