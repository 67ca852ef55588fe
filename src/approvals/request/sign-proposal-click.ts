import type { PlanSigner } from '../plan-signer.js';

/**
 * A click on a fix button as `serve` verified it (the payload's user, channel and message), handed
 * to the remediation worker that plans it. Only the opaque proposal id travels: the proposal itself
 * is read from Redis by the worker, as the button carried only that id.
 */
export interface ProposalClick {
  /** The button's value: an opaque proposal id (`p_…`). */
  proposalId: string;
  /** Slack user id of the clicker from the verified payload: the request's proposer. */
  user: string;
  /** The channel of the clicked message: the request is posted there. */
  channel: string;
  /** The thread the request is posted in (the clicked message's thread, or the message itself). */
  threadTs: string;
  /** The clicked message (with proposal and user, the key that makes a double click one request). */
  messageTs: string;
  /** ISO time serve verified the click. */
  clickedAt: string;
}

/**
 * The click sealed with K8S_HEALTH_PLAN_SECRET by the `serve` that verified it, so a job written into
 * Redis by anyone else (another proposer, another channel) is refused by the worker: Redis alone
 * can neither name the proposer nor make the bot post a request.
 */
export function signProposalClick(click: ProposalClick, signer: PlanSigner): string {
  return signer.sign('propose', click);
}

/** Does the seal match the click (constant-time)? */
export function isProposalClickSignatureValid(click: ProposalClick, sig: unknown, signer: PlanSigner): boolean {
  return signer.ready && signer.verify('propose', click, sig);
}

/**
 * The idempotency key of a click: the same proposal, clicked by the same person on the same message,
 * is the same request while one from it is being prepared or pending (a double click, a retried
 * request, an impatient second click); once that request is decided, a click proposes again.
 */
export function proposalClickKey(click: Pick<ProposalClick, 'proposalId' | 'user' | 'messageTs'>): string {
  return `${click.proposalId}.${click.user}.${click.messageTs}`;
}
