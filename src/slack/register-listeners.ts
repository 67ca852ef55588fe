import type { App, BlockButtonAction } from '@slack/bolt';
import { PROPOSE_FIX_ACTION_PATTERN } from './action-ids.js';
import { handleHealthCommand } from './handle-health-command.js';
import { handleProposeFix } from './handle-propose-fix.js';
import type { SlackDeps } from './slack-deps.js';

/** The slash command the manifest declares (manifest.yaml). */
export const HEALTH_COMMAND = '/k8s-health';

/** Register every listener of the app (explicit list, no self-registration). */
export function registerListeners(app: App, deps: SlackDeps): void {
  app.command(HEALTH_COMMAND, (args) => handleHealthCommand(args, deps));
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: PROPOSE_FIX_ACTION_PATTERN }, (args) => handleProposeFix(args, deps));
  app.error(async (err) => {
    // Last resort: a listener threw past its own try/catch. Log one line; never crash the process.
    deps.metrics.errors.inc({ where: 'bolt' });
    deps.log(`slack error: ${err.code ?? ''} ${err.message}`);
  });
}
