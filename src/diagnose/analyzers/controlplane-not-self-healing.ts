import type { Analyzer } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findCondition } from '../facts/find-condition.js';
import { isControlPlaneNode } from '../facts/is-control-plane-node.js';
import { isNodeReady } from '../facts/is-node-ready.js';
import { machineInfo } from '../facts/machine-info.js';
import { quorum } from '../facts/quorum.js';

/**
 * Seed S1: kubelet stopped on a control-plane node → NotReady forever; its Machine stays Running
 * and Cluster API does not replace it. Someone has to fix the kubelet (or the VM).
 */
export const controlplaneNotSelfHealingAnalyzer: Analyzer = analyzeEach(
  'controlplane.not-self-healing',
  // Each node, with every Machine read once for all of them.
  (ctx) => {
    const machines = ctx.snapshot.capi.machines.map((m) => ({ m, i: machineInfo(m) }));
    return ctx.snapshot.nodes.map((node) => ({ node, machines }));
  },
  ({ node, machines }, ctx) => {
    const snap = ctx.snapshot;
    const name = node.metadata.name;
    const own = machines.find(({ i }) => i.nodeName === name);
    if (!own || !own.i.controlPlane || own.i.deleting || own.i.phase !== 'Running') return undefined;
    if (!isControlPlaneNode(node) && !own.i.controlPlane) return undefined;
    if (isNodeReady(node)) return undefined;
    const ready = findCondition(node, 'Ready');
    // Seed S3: a new node NotReady because the CNI never started is node.cni-not-initialized, and CAPI does replace it.
    if (/NetworkPluginNotReady|cni plugin not initialized|NetworkReady=false/i.test(ready?.message ?? ''))
      return undefined;
    const notReadyFor = ageMinutes(ready?.lastTransitionTime, ctx.now);
    // Benign look-alike: NotReady for under the grace period (a reboot, a blip).
    if (notReadyFor !== undefined && notReadyFor * 60 < ctx.thresholds.notReadyGraceSeconds) return undefined;
    // A replacement in flight (another machine of the same KCP without a Node yet) means CAPI is healing.
    const siblings = machines.filter(
      ({ i }) => i.controlPlane && i.namespace === own.i.namespace && i.kcpName === own.i.kcpName && !i.deleting,
    );
    if (siblings.some(({ i }) => i.name !== own.i.name && !i.nodeName)) return undefined;
    const siblingNodes = siblings.map(({ i }) => snap.nodes.find((n) => n.metadata.name === i.nodeName));
    const readyLeft = siblingNodes.filter((n) => n && isNodeReady(n)).length;
    const total = siblings.length;
    const severity = readyLeft <= quorum(total) ? 'critical' : 'warning';
    const evidence = [
      `Node ${name}: condition Ready=${ready?.status ?? '<missing>'}${ready?.reason ? ` reason=${ready.reason}` : ''}${ready?.message ? ` message="${ready.message}"` : ''}${ready?.lastTransitionTime ? ` (since ${ready.lastTransitionTime})` : ''}`,
      describeMachine(own.m, ctx.now),
      `${readyLeft} of ${total} control-plane nodes Ready (etcd quorum needs ${quorum(total)})`,
    ];
    return {
      id: 'controlplane.not-self-healing',
      severity,
      section: 'controlplane',
      title: `Control-plane node ${name} NotReady${notReadyFor !== undefined ? ` for ${formatAge(notReadyFor * 60000)}` : ''}; Cluster API will not replace it`,
      subject: { kind: 'Node', name },
      evidence,
      cause: `Its Machine ${own.i.namespace}/${own.i.name} is still Running, so CAPI does not recreate it (kubelet stopped or crashing): restart kubelet on the node or fix the VM.`,
      since: ready?.lastTransitionTime,
      remediations: [],
    };
  },
);
