import type { AllMiddlewareArgs, SlackViewMiddlewareArgs } from '@slack/bolt';
import { neutralizeSlackPlainText } from '../../text/neutralize-mrkdwn.js';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { castVote } from './handle-approval-vote.js';
import type { SlackDeps } from '../slack-deps.js';

type ViewArgs = Pick<SlackViewMiddlewareArgs, 'ack' | 'body' | 'view'> & Pick<AllMiddlewareArgs, 'client'>;

/**
 * The confirmation modal (approvals.confirmByTyping): the final approver types the cluster name.
 * A wrong name keeps the modal open with an error; the right one casts the decisive approval.
 */
export async function handleApprovalConfirm(
  { ack, body, view, client }: ViewArgs,
  deps: SlackDeps & { approval: ApprovalDeps },
): Promise<void> {
  const id = view.private_metadata;
  const req = await deps.approval.approvals.get(id);
  const typed = view.state.values.cluster?.value?.value ?? '';
  if (!req) {
    await ack({ response_action: 'errors', errors: { cluster: 'This approval request is unknown.' } });
    return;
  }
  if (typed.trim() !== req.cluster) {
    await ack({
      response_action: 'errors',
      errors: { cluster: `Type the cluster name exactly: ${neutralizeSlackPlainText(req.cluster, { max: 100 })}` },
    });
    return;
  }
  await ack();
  try {
    await castVote(id, { user: body.user.id, kind: 'approve', confirmed: true }, client, deps);
  } catch (err) {
    deps.metrics.errors.inc({ where: 'action' });
    deps.log.error({ user: body.user.id, requestId: id, err }, 'approval confirm failed');
  }
}
