import type { App, BlockButtonAction } from '@slack/bolt';
import { DETAILS_ACTION_ID, FOREIGN_ACTION_PATTERN, PROPOSE_FIX_ACTION_PATTERN } from './action-ids.js';
import { handleDetails } from './handle/handle-details.js';
import { handleHealthCommand } from './handle/handle-health-command.js';
import { handleProposeFix } from './handle/handle-propose-fix.js';
import type { SlackDeps } from './slack-deps.js';

/** The slash command the manifest declares (manifest.yaml). */
export const HEALTH_COMMAND = '/k8s-health';

/** Register every listener of the app (explicit list, no self-registration). */
export function registerListeners(app: App, deps: SlackDeps): void {
  app.command(HEALTH_COMMAND, (args) => handleHealthCommand(args, deps));
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: PROPOSE_FIX_ACTION_PATTERN }, (args) => handleProposeFix(args, deps));
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: DETAILS_ACTION_ID }, (args) => handleDetails(args, deps));
  // A button no listener handles (a message posted by an older version, after an upgrade renamed
  // its ids) is acked at once and explained, instead of Slack showing the user an error after 3 s.
  app.action({ type: 'block_actions', action_id: FOREIGN_ACTION_PATTERN }, async ({ ack, respond }) => {
    await ack();
    await respond?.({ response_type: 'ephemeral', replace_original: false, text: 'k8s-health does not handle this button (the message may be from an older version): run `/k8s-health` again for current buttons.' }).catch(() => undefined);
  });
  app.error(async (err) => {
    // Last resort: a listener threw past its own try/catch. Log one line; never crash the process.
    deps.metrics.errors.inc({ where: 'bolt' });
    deps.log.error({ code: err.code, error: err.message }, 'slack error');
  });
}
