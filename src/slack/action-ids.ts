/**
 * Every Slack action id the bot owns, in one place (STYLE.md rule 7).
 * Action ids must be unique inside one actions block, so a button's id is the prefix plus its
 * index; listeners match the prefix with `PROPOSE_FIX_ACTION_PATTERN`.
 */

/** Prefix of the "proposed fix" buttons under a finding. */
export const PROPOSE_FIX_ACTION_PREFIX = 'k8s-health.propose-fix';

/** Matches every proposed-fix button id. */
export const PROPOSE_FIX_ACTION_PATTERN = /^k8s-health\.propose-fix(\.\d+)?$/;

/** The action id of the n-th proposed-fix button in one actions block. */
export function proposeFixActionId(index: number): string {
  return `${PROPOSE_FIX_ACTION_PREFIX}.${index}`;
}
