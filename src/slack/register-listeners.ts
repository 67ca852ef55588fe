import type { App, BlockButtonAction, BlockStaticSelectAction } from '@slack/bolt';
import { handlePickCluster, handlePickClusterOptions } from './handle/handle-pick-cluster.js';
import {
  CLUSTER_PICK_ACTION_ID,
  DETAILS_ACTION_ID,
  FOREIGN_ACTION_PATTERN,
  PROPOSE_FIX_ACTION_PATTERN,
} from './action-ids.js';
import { handleDetails } from './handle/handle-details.js';
import { handleHealthCommand } from './handle/handle-health-command.js';
import { handleProposeFix } from './handle/handle-propose-fix.js';
import type { SlackDeps } from './slack-deps.js';
import type { AlertThreadDeps } from './handle/handle-alert-thread.js';
import { registerAlertThreadListeners } from './handle/handle-alert-thread.js';
import type { AppHomeDeps } from './post/publish-app-home.js';
import { registerAppHomeListener } from './handle/handle-app-home.js';
import type { ApprovalDeps } from './handle/handle-approval-deps.js';
import { registerApprovalListeners } from './handle/handle-approval-listeners.js';
import { registerAlertmanagerListeners, type AlertmanagerSilenceDeps } from './handle/handle-alertmanager-silence.js';

/** The slash command the manifest declares (manifest.yaml). */
export const HEALTH_COMMAND = '/k8s-health';

/**
 * What the listener groups need: the command's and buttons' deps, and each optional group's own.
 * `serve` and the sandbox give all of them; a test of one part gives only what that part needs.
 */
export type ListenerDeps = SlackDeps & {
  approval?: ApprovalDeps;
  alertThreads?: AlertThreadDeps;
  appHome?: AppHomeDeps;
  alertmanager?: AlertmanagerSilenceDeps;
};

/**
 * Register every listener of the app (explicit list, no self-registration): the command and its
 * buttons, then the approval buttons and modal, the alert thread's buttons and the App Home, each
 * group when its deps are given. The one call a composition root makes.
 */
export function registerListeners(app: App, deps: ListenerDeps): void {
  app.command(HEALTH_COMMAND, (args) => handleHealthCommand(args, deps));
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: PROPOSE_FIX_ACTION_PATTERN }, (args) =>
    handleProposeFix(args, deps),
  );
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: DETAILS_ACTION_ID }, (args) =>
    handleDetails(args, deps),
  );
  app.action<BlockStaticSelectAction>({ type: 'block_actions', action_id: CLUSTER_PICK_ACTION_ID }, (args) =>
    handlePickCluster(args, deps),
  );
  app.options<'block_suggestion'>({ type: 'block_suggestion', action_id: CLUSTER_PICK_ACTION_ID }, (args) =>
    handlePickClusterOptions(args, deps),
  );
  // A button no listener handles (a message posted by an older version, after an upgrade renamed
  // its ids) is acked at once and explained, instead of Slack showing the user an error after 3 s.
  app.action({ type: 'block_actions', action_id: FOREIGN_ACTION_PATTERN }, async ({ ack, respond }) => {
    await ack();
    await respond?.({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'k8s-health does not handle this button (the message may be from an older version): run `/k8s-health` again for current buttons.',
    }).catch(() => undefined);
  });
  app.error(async (err) => {
    // Last resort: a listener threw past its own try/catch. Log one line; never crash the process.
    deps.metrics.errors.inc({ where: 'bolt' });
    deps.log.error({ code: err.code, err }, 'slack error');
  });
  // The same deps object goes on (not a copy): a root that fills it in later is seen by every handler.
  if (deps.approval) registerApprovalListeners(app, deps as SlackDeps & { approval: ApprovalDeps });
  if (deps.alertThreads) registerAlertThreadListeners(app, deps as SlackDeps & { alertThreads: AlertThreadDeps });
  if (deps.appHome) registerAppHomeListener(app, deps as { appHome: AppHomeDeps });
  if (deps.alertmanager)
    registerAlertmanagerListeners(app, deps as SlackDeps & { alertmanager: AlertmanagerSilenceDeps });
}
