import type { ProposeRefusal } from '../../approvals/request/propose-fix.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';
import { mentionUser, SLACK_CHANNEL_ID } from './mention-user.js';
import { slackDate } from './slack-date.js';

/**
 * A link to a request's message in another thread or channel (a Slack permalink built from its
 * channel and ts), or "in its thread" when those are not ids as Slack issues them (read back from Redis).
 */
function requestLink(thread: { channel: string; threadTs?: string; messageTs?: string } | undefined): string {
  const ts = thread?.messageTs ?? thread?.threadTs;
  if (!thread || !SLACK_CHANNEL_ID.test(thread.channel) || !ts || !/^\d{1,12}\.\d{1,8}$/.test(ts))
    return 'in its thread';
  const root =
    thread.threadTs && /^\d{1,12}\.\d{1,8}$/.test(thread.threadTs)
      ? `?thread_ts=${thread.threadTs}&cid=${thread.channel}`
      : '';
  return `in <https://slack.com/archives/${thread.channel}/p${ts.replace('.', '')}${root}|its thread>`;
}

/**
 * What the clicker of a fix button is told when the remediation worker did not propose it (an
 * ephemeral text). Labels and error messages come from the cluster or the proposal: neutralized.
 */
export function renderProposalRefusal(
  refusal:
    | ProposeRefusal
    | { reason: 'unknown-proposal' }
    | { reason: 'unverified-click' }
    | { reason: 'error'; detail: string },
): string {
  switch (refusal.reason) {
    case 'unknown-proposal':
      return 'This proposal is unknown or expired (or not for a cluster of this channel): run `/k8s-health` again for current proposals.';
    case 'unverified-click':
      return 'Not proposed: the remediation worker could not verify this click (is K8S_HEALTH_PLAN_SECRET the same in serve and in the worker?).';
    case 'no-secret':
      // Our own line (plan-signer.ts), naming the variable with its backticks.
      return `Not proposed: ${refusal.detail}`;
    case 'not-allowed':
      return `Not proposed: ${md(refusal.detail, { max: 1000 })}`;
    case 'plan-failed':
      return `Cannot propose *${md(refusal.label, { max: 200 })}*: ${md(refusal.detail, { max: 1000 })}`;
    case 'already-proposed': {
      const where = refusal.sameThread ? 'in this thread' : requestLink(refusal.thread);
      return refusal.byClicker
        ? `You already proposed this fix: your request is waiting for approvals ${where}.`
        : `This fix is already proposed by ${mentionUser(refusal.proposer)} and waiting for approvals ${where}: approve it there (one request per fix).`;
    }
    case 'being-proposed': {
      // The link follows in an ephemeral of its own once the request is stored (jobs/workers/propose.ts);
      // a planner that died never stores one, and its claim expires after `retrySeconds`.
      const retry =
        refusal.retrySeconds < 120
          ? `${Math.max(1, Math.round(refusal.retrySeconds))} seconds`
          : `${Math.ceil(refusal.retrySeconds / 60)} minutes`;
      return refusal.byClicker
        ? `You already pressed this fix and it is being planned right now: a link to its approval request follows here once it is posted (one request per fix). If none comes within ${retry}, press it again.`
        : `This fix is being proposed by ${refusal.planner ? mentionUser(refusal.planner) : 'someone else'} right now: a link to its approval request follows here once it is posted (one request per fix). If none comes within ${retry}, press it again.`;
    }
    case 'already-ran':
      return `*${md(refusal.label, { max: 200 })}* already ran ${slackDate(refusal.at) ?? 'earlier'}: see its result in the thread; \`/k8s-health\` shows what is still wrong.`;
    case 'error':
      return `Could not propose this fix: ${md(refusal.detail, { max: 1000 })}`;
  }
}
