import type { App, BlockButtonAction } from '@slack/bolt';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { handleApprovalConfirm } from './handle-approval-confirm.js';
import { handleApprovalVote } from './handle-approval-vote.js';
import { APPROVE_ACTION_ID, CONFIRM_VIEW_ID, REJECT_ACTION_ID } from '../render/render-approval.js';
import type { SlackDeps } from '../slack-deps.js';
import { SHOW_BACKUP_ACTION_ID } from '../action-ids.js';
import { handleShowBackup } from './handle-show-backup.js';

/**
 * Register the approval listeners (Approve, Reject, the confirmation modal). The proposed-fix
 * button itself stays registered by register-listeners.ts; it finds the approval deps on `deps.approval`.
 */
export function registerApprovalListeners(app: App, deps: SlackDeps & { approval: ApprovalDeps }): void {
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: APPROVE_ACTION_ID }, (args) =>
    handleApprovalVote(args, deps),
  );
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: REJECT_ACTION_ID }, (args) =>
    handleApprovalVote(args, deps),
  );
  app.view(CONFIRM_VIEW_ID, (args) => handleApprovalConfirm(args, deps));
  app.action<BlockButtonAction>({ type: 'block_actions', action_id: SHOW_BACKUP_ACTION_ID }, (args) =>
    handleShowBackup(args, deps),
  );
}
