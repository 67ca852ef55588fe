import type { Analyzer } from '../analyzer.js';
import { createDeletionAnalyzer } from '../facts/create-deletion-analyzer.js';
import { ownerOf } from '../facts/find-deletion-blocker.js';
import { KCP_CLEANUP_HOOK } from '../facts/read-machine-deletion.js';

/**
 * capi.deletion-hook-pending: a Machine being deleted that has waited `deletingMinutes` for a
 * lifecycle hook — an annotation `pre-drain.delete.hook.machine.cluster.x-k8s.io/<name>: <owner>` or
 * `pre-terminate.delete.hook.machine.cluster.x-k8s.io/<name>: <owner>` that its owner has not removed
 * (v1beta2 `Deleting` reason `WaitingForPreDrainHook` / `WaitingForPreTerminateHook` and
 * `status.deletion.waitFor…HookStartTime`; v1beta1 `PreDrainDeleteHookSucceeded` /
 * `PreTerminateDeleteHookSucceeded` False). Names every hook and its owner. Proposes nothing: a hook
 * belongs to someone else's controller, and removing it skips whatever that controller must do first.
 */
export const capiDeletionHookPendingAnalyzer: Analyzer = createDeletionAnalyzer('capi.deletion-hook-pending', (b) => {
  const { info } = b;
  const point = b.deletion.stage === 'WaitingForPreDrainHook' ? 'pre-drain' : 'pre-terminate';
  const owners = [...new Set(b.hooks.map((h) => ownerOf(h, info)))];
  const onlyKcp = b.hooks.length > 0 && b.hooks.every((h) => h.annotation === KCP_CLEANUP_HOOK);
  const cause = onlyKcp
    ? `KubeadmControlPlane ${info.kcpName ?? '?'} has not removed its kcp-cleanup hook: it removes this machine's etcd member first, so look at etcd (member list, KubeadmControlPlane EtcdClusterHealthy) and the KCP controller's logs. Do not remove the hook by hand: the etcd member would stay.`
    : `${point === 'pre-drain' ? 'Before draining' : 'Before deleting the VM'}, Cluster API waits until every ${point} hook annotation is removed by the controller that set it. Ask its owner (${owners.join(', ')}) why it does not finish; the bot never removes someone else's hook.`;
  return {
    says: `deletion waits on ${b.summary}`,
    evidence: b.evidence,
    cause,
    steps: b.hooks.map(
      (h) => `ask ${ownerOf(h, info)} to finish or remove its hook ${h.name} (annotation ${h.annotation})`,
    ),
    remediations: [],
    ids: { hooks: b.hooks.map((h) => h.annotation).join(',') },
  };
});
