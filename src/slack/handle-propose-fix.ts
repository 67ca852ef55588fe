import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from './slack-deps.js';

type ButtonArgs = Pick<SlackActionMiddlewareArgs<BlockButtonAction>, 'action' | 'ack' | 'respond' | 'body'> & Partial<Pick<AllMiddlewareArgs, 'client'>>;

/**
 * A click on a proposed-fix button. The two-person approval flow is a later issue: for now the
 * click says, to the clicker only, what the fix would do — and that approvals are not enabled yet.
 */
export async function handleProposeFix({ action, ack, respond, body }: ButtonArgs, deps: SlackDeps): Promise<void> {
  await ack();
  try {
    const stored = action.value ? await deps.proposals.get(action.value) : undefined;
    const text = stored
      ? `Approval flow not enabled yet. This button would propose: *${stored.proposal.label}* on cluster \`${stored.cluster}\` ` +
        `(${stored.proposal.action}; risk: ${stored.proposal.risk}). It would run only after two authorized approvals.`
      : 'Approval flow not enabled yet, and this proposal is unknown or expired: run `/k8s-health` again for current proposals.';
    deps.log(`propose-fix click user=${body.user.id} proposal=${stored ? action.value : 'unknown'}`);
    await respond({ response_type: 'ephemeral', replace_original: false, text });
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    deps.log(`propose-fix click failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
