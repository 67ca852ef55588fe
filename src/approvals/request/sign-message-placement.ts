import type { ApprovalRequest } from '../approval-request.js';
import type { PlanSigner } from '../plan-signer.js';

const placement = (req: ApprovalRequest) => ({
  requestId: req.id,
  channel: req.thread.channel,
  messageTs: req.thread.messageTs,
});

/**
 * The request's own Slack message, signed once it is posted. `thread.messageTs` is known only after the
 * request itself was signed, and every vote, the expiry sweep and the executor edit that message
 * (chat.update): unsigned, a Redis writer could point those edits at another of the bot's messages in the
 * channel.
 */
export function signMessagePlacement(req: ApprovalRequest, signer: PlanSigner): string {
  return signer.sign('message', placement(req));
}

/** The message to edit for this request: its messageTs when the placement MAC verifies, else none. */
export function messageToEdit(req: ApprovalRequest, signer: PlanSigner | undefined): string | undefined {
  const ts = req.thread.messageTs;
  if (!ts || !signer?.ready) return undefined;
  return signer.verify('message', placement(req), req.thread.messageMac) ? ts : undefined;
}
