import type { webApi } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import type { PlanSigner } from '../../approvals/plan-signer.js';
import { messageToEdit } from '../../approvals/request/sign-message-placement.js';
import { renderApproval } from '../render/render-approval.js';

/**
 * Re-render an approval request's message to the request as stored (chat.update): after a vote, a
 * run and an expiry alike, so the message shows one state whoever changed it. `none`: the request has
 * no message this process may edit (none posted, or its placement is not signed by `signer`). Slack's
 * errors are thrown: whether one is retried or logged is the caller's.
 */
export async function updateApprovalMessage(
  client: webApi.WebClient,
  req: ApprovalRequest,
  signer: PlanSigner | undefined,
): Promise<'updated' | 'none'> {
  const ts = messageToEdit(req, signer);
  if (!ts) return 'none';
  const m = renderApproval(req);
  await client.chat.update({ channel: req.thread.channel, ts, text: m.text, blocks: m.blocks });
  return 'updated';
}
