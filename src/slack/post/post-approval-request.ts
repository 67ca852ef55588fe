import type { webApi } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import type { ProposalClick } from '../../approvals/request/sign-proposal-click.js';
import { renderApproval } from '../render/render-approval.js';

/** Post a new approval request in the thread of the clicked message; returns the message's ts. */
export async function postApprovalRequest(client: webApi.WebClient, req: ApprovalRequest): Promise<string | undefined> {
  const message = renderApproval(req);
  const thread = req.thread.threadTs ? { thread_ts: req.thread.threadTs } : {};
  const posted = await client.chat.postMessage({
    channel: req.thread.channel,
    ...thread,
    text: message.text,
    blocks: message.blocks,
    unfurl_links: false,
  });
  return posted.ts;
}

/**
 * Tell the clicker, and only them, why their click did not become a request: an ephemeral message in
 * the clicked thread. (The remediation worker has no response_url — it stays with `serve`, out of Redis.)
 */
export async function postProposalReply(client: webApi.WebClient, click: ProposalClick, text: string): Promise<void> {
  await client.chat.postEphemeral({
    channel: click.channel,
    user: click.user,
    text,
    ...(click.threadTs ? { thread_ts: click.threadTs } : {}),
  });
}
