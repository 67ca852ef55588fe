import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { Severity } from '../finding.js';
import { formatAge } from '../facts/age.js';
import { findCondition } from '../facts/find-condition.js';
import { findHeldVolumes } from '../facts/find-held-volumes.js';
import { findMachineForNode } from '../facts/find-machine-for-node.js';
import { findMachineHealthCheck } from '../facts/find-machine-health-check.js';
import { findStuckTerminatingPods } from '../facts/find-stuck-terminating-pods.js';
import { isNodeGone } from '../facts/is-node-gone.js';
import { proposeNodeRelease } from '../facts/propose-node-release.js';

/**
 * node.not-ready (seeds 001, 003, 004): any node NotReady/Unknown longer than notReadyGraceSeconds,
 * with the reason and whether CAPI will replace it and when. Info while a MachineHealthCheck will
 * replace it (S1 drill 1), warning otherwise, critical when pods are stuck on it or it holds volumes.
 * Control-plane and CNI-not-initialized nodes are reported too (controlplane.not-self-healing and
 * node.cni-not-initialized add the specific diagnosis on top).
 */
export const nodeNotReadyAnalyzer: Analyzer = {
  id: 'node.not-ready',
  analyze(ctx) {
    const { snapshot, now, thresholds } = ctx;
    const out: FindingDraft[] = [];
    const stuck = findStuckTerminatingPods(snapshot, { graceMinutes: thresholds.terminatingGraceMinutes, now });
    const held = findHeldVolumes(snapshot);
    for (const node of snapshot.nodes) {
      const name = node.metadata?.name;
      if (!name) continue;
      const ready = findCondition(node, 'Ready');
      if (!ready || (ready.status !== 'False' && ready.status !== 'Unknown')) continue;
      const sinceMs = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
      const ageMs = Number.isNaN(sinceMs) ? undefined : Math.max(0, now.getTime() - sinceMs);
      if (ageMs !== undefined && ageMs < thresholds.notReadyGraceSeconds * 1000) continue; // benign: under a minute
      const evidence = [
        `Node ${name}: condition Ready=${ready.status} reason=${ready.reason ?? '<none>'}${ready.message ? ` "${ready.message}"` : ''}` +
          (ready.lastTransitionTime ? ` (since ${ready.lastTransitionTime}, ${formatAge(ageMs ?? 0)} ago)` : ''),
      ];
      const hb = (Array.isArray(node.status?.conditions) ? node.status.conditions : []).find(
        (c: { type?: string }) => c?.type === 'Ready',
      )?.lastHeartbeatTime;
      if (hb) evidence.push(`Node ${name}: last heartbeat ${hb}`);
      const taints = (Array.isArray(node.spec?.taints) ? node.spec.taints : []) as { key?: string; effect?: string }[];
      const shown = taints.filter(
        (t) =>
          typeof t?.key === 'string' &&
          (t.key.startsWith('node.kubernetes.io/') || t.key.startsWith('node.cloudprovider.')),
      );
      if (shown.length) evidence.push(`taints: ${shown.map((t) => `${t.key}:${t.effect ?? ''}`).join(', ')}`);

      let severity: Severity = 'warning';
      let fate: string;
      const machine = findMachineForNode(snapshot, name);
      if (!machine) {
        fate = snapshot.capi.machines.length
          ? 'no Cluster API Machine references it: nothing will replace it'
          : 'no Cluster API data: nothing known will replace it';
      } else {
        const mid = `Machine ${machine.metadata?.namespace ?? ''}/${machine.metadata?.name}`;
        evidence.push(
          `${mid}: phase=${machine.status?.phase ?? '<none>'}${machine.metadata?.deletionTimestamp ? `, deletionTimestamp=${machine.metadata.deletionTimestamp}` : ''}`,
        );
        const mhcMatch = findMachineHealthCheck(snapshot, machine, ready.status);
        if (machine.metadata?.deletionTimestamp || machine.status?.phase === 'Deleting') {
          severity = 'info';
          fate = `CAPI is replacing it (${mid} is Deleting)`;
        } else if (!mhcMatch) {
          fate = 'no MachineHealthCheck covers its Machine: CAPI will not replace it';
        } else {
          const mhcId = `MachineHealthCheck ${mhcMatch.mhc.metadata?.namespace ?? ''}/${mhcMatch.mhc.metadata?.name}`;
          if (!mhcMatch.remediationAllowed) {
            evidence.push(`${mhcId}: ${mhcMatch.blockedWhy}`);
            fate = `${mhcId} covers it but will not remediate (${mhcMatch.blockedWhy})`;
          } else if (mhcMatch.timeoutSeconds === undefined) {
            fate = `${mhcId} covers its Machine but has no unhealthy condition for Ready=${ready.status}: it will not replace it`;
          } else if (
            Number.isNaN(sinceMs) ||
            Number.isNaN(new Date(sinceMs + mhcMatch.timeoutSeconds * 1000).getTime())
          ) {
            // No transition time, or a timeout too large for a date (a corrupt or fuzzed MHC): no clock time.
            severity = 'info';
            fate = `${mhcId} will replace it ${formatAge(mhcMatch.timeoutSeconds * 1000)} after it went ${ready.status}`;
          } else {
            const at = new Date(sinceMs + mhcMatch.timeoutSeconds * 1000);
            const hhmm = `${at.toISOString().slice(11, 16)} UTC`;
            evidence.push(
              `${mhcId}: unhealthy condition Ready=${ready.status} timeout ${formatAge(mhcMatch.timeoutSeconds * 1000)}`,
            );
            if (at.getTime() > now.getTime()) {
              severity = 'info';
              fate = `${mhcId} will replace it at ~${hhmm}`;
            } else {
              fate = `${mhcId} should have replaced it at ~${hhmm} (${formatAge(now.getTime() - at.getTime())} ago) but the Machine is still ${machine.status?.phase ?? 'present'}`;
            }
          }
        }
      }
      const podsHere = stuck.filter((s) => s.pod.nodeName === name);
      const volsHere = held.filter((h) => h.node === name);
      for (const s of podsHere.slice(0, 5))
        evidence.push(
          `Pod ${s.pod.namespace}/${s.pod.name} Terminating since ${s.pod.deletionTimestamp} (${formatAge(s.overdueMinutes * 60000)} past its grace period)`,
        );
      for (const h of volsHere.slice(0, 5))
        evidence.push(
          `Volume ${h.pvName}${h.pvc ? ` (PVC ${h.pvc.namespace}/${h.pvc.name})` : ''} still attached to ${name}; waiting: ${h.waitingPods.map((p) => `${p.namespace}/${p.name}`).join(', ') || '<none>'}`,
        );
      if (podsHere.length || volsHere.length) severity = 'critical';
      const gone = isNodeGone(snapshot, node);
      evidence.push(gone.gone ? `confirmed gone: ${gone.why}` : `not confirmed gone: ${gone.why}`);
      const why =
        ready.reason === 'NodeStatusUnknown' || ready.status === 'Unknown'
          ? 'kubelet stopped posting node status (VM powered off, crashed, or network partition)'
          : `kubelet reports ${ready.reason ?? 'NotReady'}`;
      const held2 =
        podsHere.length || volsHere.length
          ? `; ${podsHere.length} pod(s) stuck Terminating and ${volsHere.length} volume(s) held on it`
          : '';
      const draft: FindingDraft = {
        id: 'node.not-ready',
        severity,
        section: 'nodes',
        title: `Node ${name} ${ready.status === 'Unknown' ? 'Unknown' : 'NotReady'}${ageMs !== undefined ? ` for ${formatAge(ageMs)}` : ''}: ${fate}`,
        subject: { kind: 'Node', name },
        evidence,
        cause: `${why}; ${fate}${held2}.`,
        remediations: severity === 'critical' && gone.gone ? [proposeNodeRelease(node)] : [],
      };
      if (ready.lastTransitionTime) draft.since = ready.lastTransitionTime;
      // Without Cluster API objects nothing says whether a MachineHealthCheck will replace the node.
      if (!machine && !snapshot.capi.machines.length)
        draft.missing = [
          'Cluster API Machines not read: whether a MachineHealthCheck will replace the node is not known',
        ];
      out.push(draft);
    }
    return out;
  },
};
