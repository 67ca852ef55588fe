import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { findAction } from '../remediate/actions/index.js';
import type { ApprovalRequest } from '../remediate/approval-request.js';
import { createBackupLoader } from '../remediate/create-backup-loader.js';
import { hashPlan } from '../remediate/hash-plan.js';
import type { RemediationPlan } from '../remediate/remediation-plan.js';
import { signRequest } from '../remediate/sign-request.js';
import { neutralizeMrkdwn as md } from '../report/neutralize-mrkdwn.js';
import { clampBlocks } from './clamp-blocks.js';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { renderApproval, renderPlanBlocks } from './render-approval.js';
import type { SlackDeps } from './slack-deps.js';

type ButtonArgs = Pick<SlackActionMiddlewareArgs<BlockButtonAction>, 'action' | 'ack' | 'respond' | 'body'> & Partial<Pick<AllMiddlewareArgs, 'client'>>;

/**
 * A click on a proposed-fix button (issue 6). Numbered flow:
 * 1. the button value is an opaque proposal id; unknown, or for a cluster this channel may not use → refused;
 * 2. a dump-backed cluster, or one without remediation.enabled, is refused ephemerally — showing the plan;
 * 3. without K8S_HEALTH_PLAN_SECRET nothing is proposed (one line naming it);
 * 4. the plan is frozen against the live cluster (recorded values, uids, hash) and dry-run server-side;
 * 5. the approval request is signed (HMAC with K8S_HEALTH_PLAN_SECRET), stored in Redis and posted in
 *    the thread of the clicked message ("0 of N approvals", Approve / Reject — no Approve when the dry
 *    run failed), and audited. The proposer is the verified payload's user.
 * Labels, plan text and error messages in the ephemeral replies are untrusted text: neutralized.
 */
export async function handleProposeFix({ action, ack, respond, body, client }: ButtonArgs, deps: SlackDeps & { approval?: ApprovalDeps }): Promise<void> {
  await ack();
  const user = body.user?.id ?? '';
  const reply = (text: string, blocks?: ReturnType<typeof renderPlanBlocks>) => respond({ response_type: 'ephemeral', replace_original: false, text, ...(blocks ? clampBlocks({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, ...blocks] }) : {}) });
  try {
    const stored = action.value ? await deps.proposals.get(action.value) : undefined;
    const cluster = stored && deps.config.clusters.find((c) => c.name === stored.cluster);
    const channel = body.channel?.id ?? body.container?.channel_id ?? '';
    if (!user || !stored || !cluster || (cluster.slack.channels.length > 0 && !cluster.slack.channels.includes(channel))) {
      deps.log(`propose-fix refused user=${user} reason=unknown-proposal`);
      await reply('This proposal is unknown or expired (or not for a cluster of this channel): run `/k8s-health` again for current proposals.');
      return;
    }
    const a = findAction(stored.proposal.action);
    const approval = deps.approval;
    if (cluster.dump || !cluster.remediation.enabled || !approval || !client) {
      const preview = await a.plan(cluster.name, stored.proposal.params);
      const name = md(cluster.name, { max: 100 });
      const why = cluster.dump
        ? `cluster \`${name}\` is dump-backed (read-only): it can never be remediated`
        : !cluster.remediation.enabled
          ? `remediation is not enabled for cluster \`${name}\` (set remediation.enabled: true for it in the config)`
          : 'the approval flow is not running in this process';
      deps.log(`propose-fix refused user=${user} cluster=${cluster.name} action=${a.id} reason=${cluster.dump ? 'dump' : 'disabled'}`);
      await reply(`Not proposed: ${why}. This is what *${md(stored.proposal.label, { max: 200 })}* would do:`, renderPlanBlocks(preview));
      return;
    }

    // Every request is signed with K8S_HEALTH_PLAN_SECRET: without it nothing is proposed (one line,
    // naming the variable); the preview above for dump-backed and disabled clusters needs no secret.
    if (!approval.signer.ready) {
      deps.log(`propose-fix refused user=${user} cluster=${cluster.name} action=${a.id} reason=no-plan-secret`);
      await reply(`Not proposed: ${approval.signer.problem}`);
      return;
    }
    const ctx = await approval.createContext(cluster);
    ctx.loadBackup ??= createBackupLoader(approval.backups, approval.signer);
    let plan: RemediationPlan;
    try {
      plan = await a.plan(cluster.name, stored.proposal.params, ctx);
    } catch (err) {
      await reply(`Cannot propose *${md(stored.proposal.label, { max: 200 })}*: ${md(err instanceof Error ? err.message : String(err), { max: 1000 })}`);
      return;
    }
    let dryRun: string;
    let dryRunOk = true;
    try {
      dryRun = await a.dryRun(plan, ctx);
    } catch (err) {
      // Shown, and recorded: a plan whose dry run failed gets no Approve button and no approve vote counts (issue 14).
      dryRunOk = false;
      dryRun = `:x: dry run failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const now = deps.now();
    const threadTs = body.message?.thread_ts ?? body.container?.message_ts ?? body.message?.ts;
    const req: ApprovalRequest = {
      id: approval.approvals.newId(),
      cluster: cluster.name,
      plan,
      hash: hashPlan(plan),
      proposer: user,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.config.approvals.ttlMinutes * 60_000).toISOString(),
      required: deps.config.approvals.required,
      status: 'pending',
      approvals: [],
      dryRun,
      dryRunOk,
      thread: { channel, threadTs: String(threadTs ?? '') },
      transitions: [{ status: 'pending', at: now.toISOString() }],
    };
    req.signature = signRequest(req, approval.signer);
    const message = renderApproval(req);
    const posted = await client.chat.postMessage({ channel, ...(threadTs ? { thread_ts: threadTs } : {}), text: message.text, blocks: message.blocks, unfurl_links: false });
    req.thread.messageTs = posted.ts;
    await approval.approvals.create(req);
    await approval.audit.append({ at: now.toISOString(), cluster: cluster.name, requestId: req.id, event: 'proposed', action: plan.action, user, hash: req.hash, detail: `${plan.label}; ${dryRun}` });
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    const reason = err instanceof Error ? err.message : String(err);
    deps.log(`propose-fix click failed: ${reason}`);
    await reply(`Could not propose this fix: ${md(reason, { max: 1000 })}`).catch(() => undefined);
  }
}
