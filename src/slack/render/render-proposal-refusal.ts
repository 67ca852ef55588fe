import type { ProposeRefusal } from '../../approvals/request/propose-fix.js';
import { neutralizeMrkdwn as md } from '../../text/neutralize-mrkdwn.js';

/**
 * What the clicker of a fix button is told when the remediation worker did not propose it (an
 * ephemeral text). Labels and error messages come from the cluster or the proposal: neutralized.
 */
export function renderProposalRefusal(refusal: ProposeRefusal | { reason: 'unknown-proposal' } | { reason: 'unverified-click' } | { reason: 'error'; detail: string }): string {
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
    case 'already-proposed':
      return 'You already proposed this fix from this message: your request is waiting for approvals in this thread.';
    case 'error':
      return `Could not propose this fix: ${md(refusal.detail, { max: 1000 })}`;
  }
}
