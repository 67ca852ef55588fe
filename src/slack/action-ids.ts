/**
 * Every Slack action id the bot owns, in one place (docs/development.md, "Slack specifics").
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

/** The card's "Details" button (render-blocks.ts): symptoms, evidence and sections, ephemeral to the clicker. */
export const DETAILS_ACTION_ID = 'k8s-health.details';
/** Alert thread buttons (slack/render/render-alert.ts, handled by slack/handle/handle-alert-thread.ts). */
export const ALERT_OWN_ACTION_ID = 'k8s-health.alert.own';
export const ALERT_SNOOZE_ACTION_ID = 'k8s-health.alert.snooze';
export const ALERT_UNSNOOZE_ACTION_ID = 'k8s-health.alert.unsnooze';
export const ALERT_TIMELINE_ACTION_ID = 'k8s-health.alert.timeline';

/** "Show backup" under an execution result (handle-show-backup.ts): the backup to the clicker alone. */
export const SHOW_BACKUP_ACTION_ID = 'k8s-health.approval.show-backup';

/** The cluster picker of `/k8s-health` without a name (render-cluster-picker.ts, handle-pick-cluster.ts). */
export const CLUSTER_PICK_ACTION_ID = 'k8s-health.pick-cluster';
/**
 * Prometheus alert buttons (slack/render/render-prometheus-alert.ts, handled by
 * slack/handle/handle-alertmanager-silence.ts): silence an alert (or every alert of a thread) in
 * Alertmanager for 1, 4 or 24 hours, and expire such a silence. The root cause's parent offers the three
 * durations for all of its thread's alerts in one overflow menu (render-alert.ts), its option values naming the
 * hours and the thread.
 */
export const ALERTMANAGER_SILENCE_ALL_ACTION_ID = 'k8s-health.alertmanager.silence-all';
export const ALERTMANAGER_SILENCE_1H_ACTION_ID = 'k8s-health.alertmanager.silence-1h';
export const ALERTMANAGER_SILENCE_4H_ACTION_ID = 'k8s-health.alertmanager.silence-4h';
export const ALERTMANAGER_SILENCE_24H_ACTION_ID = 'k8s-health.alertmanager.silence-24h';
export const ALERTMANAGER_EXPIRE_ACTION_ID = 'k8s-health.alertmanager.expire';

/** Action ids of the approval buttons and the confirmation modal (values: the opaque request id only). */
export const APPROVE_ACTION_ID = 'k8s-health.approval.approve';
export const REJECT_ACTION_ID = 'k8s-health.approval.reject';
export const CONFIRM_VIEW_ID = 'k8s-health.approval.confirm';

/**
 * Every fixed button id some listener of ours handles (the proposed fixes match PROPOSE_FIX_ACTION_PATTERN
 * besides): the single list a new button is added to; the patterns below are derived from it.
 */
export const OWN_ACTION_IDS: readonly string[] = [
  APPROVE_ACTION_ID,
  REJECT_ACTION_ID,
  DETAILS_ACTION_ID,
  ALERT_OWN_ACTION_ID,
  ALERT_SNOOZE_ACTION_ID,
  ALERT_UNSNOOZE_ACTION_ID,
  ALERT_TIMELINE_ACTION_ID,
  ALERTMANAGER_SILENCE_ALL_ACTION_ID,
  ALERTMANAGER_SILENCE_1H_ACTION_ID,
  ALERTMANAGER_SILENCE_4H_ACTION_ID,
  ALERTMANAGER_SILENCE_24H_ACTION_ID,
  ALERTMANAGER_EXPIRE_ACTION_ID,
  CLUSTER_PICK_ACTION_ID,
  SHOW_BACKUP_ACTION_ID,
];

const ownAlternatives = `${PROPOSE_FIX_ACTION_PATTERN.source.replace(/^\^|\$$/g, '')}|${OWN_ACTION_IDS.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}`;

/**
 * Every button id some listener of ours handles. Anything else is answered by the catch-all in register-listeners.ts.
 */
export const OWN_ACTION_PATTERN = new RegExp(`^(?:${ownAlternatives})$`);

/** Button ids no listener of ours handles (a message from an older version, another app's block). */
export const FOREIGN_ACTION_PATTERN = new RegExp(`^(?!(?:${ownAlternatives})$)`);
