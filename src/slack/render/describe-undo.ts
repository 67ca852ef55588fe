import { ACTIONS } from '../../approvals/actions/index.js';
import type { ActionId } from '../../diagnose/finding.js';

/**
 * The undo of each catalog action, in words for the approval message, as each action declares it
 * (`undoWords` in its file under approvals/actions/): derived from the registry, never listed again.
 */
export const UNDO_OF: Readonly<Record<ActionId, string>> = Object.fromEntries(
  ACTIONS.map((a) => [a.id, a.undoWords]),
) as Record<ActionId, string>;
