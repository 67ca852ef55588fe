import type { webApi } from '@slack/bolt';
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import { renderApprovalResult } from '../render/render-approval-result.js';

/** Post a finished remediation's result (backup, undo button) in the request's thread. */
export async function postApprovalResult(
  client: webApi.WebClient,
  req: ApprovalRequest,
  extra: Parameters<typeof renderApprovalResult>[1],
): Promise<void> {
  const result = renderApprovalResult(req, extra);
  const thread = req.thread.threadTs ? { thread_ts: req.thread.threadTs } : {};
  await client.chat.postMessage({
    channel: req.thread.channel,
    ...thread,
    text: result.text,
    blocks: result.blocks,
    unfurl_links: false,
  });
}
