import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { findMachineHealthCheck } from '../facts/find-machine-health-check.js';
import { machineInfo } from '../facts/machine-info.js';
import { parseRemediationFor, REMEDIATION_FOR_ANNOTATION } from '../facts/parse-remediation-for.js';
import { proposePauseRemediation } from '../facts/propose-pause-remediation.js';
import { DEFAULT_MIN_HEALTHY_PERIOD_SECONDS, readCapiStatus } from '../facts/read-capi-status.js';
import { readMachineHealth } from '../facts/read-machine-health.js';
import { DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS, readMhcStatus } from '../facts/read-mhc-status.js';

/** Control-plane remediation that failed this often is critical (seed S0 showed retryCount 819). */
const CRITICAL_CP_FAILURES = 3;
/** Two failed replacements in a row: the first retry failed too. One failure is not a loop. */
const LOOP_FAILURES = 2;

/**
 * Seed S0: KCP remediates the same failed control-plane machine again and again; the replacement's
 * `remediation-for` annotation counts the retries.
 *
 * What we follow (KCP remediation, CAPI book "Remediation of control plane machines" and the
 * KubeadmControlPlane API docs for maxRetry / retryPeriod / minHealthyPeriod): M1 fails, KCP replaces
 * it with M1-1, whose annotation says retryCount 0. If M1-1 fails within minHealthyPeriod (default
 * 1h) of that remediation, KCP replaces it with M1-2 carrying retryCount 1 — a retry — and so on, at
 * most maxRetry times, at least retryPeriod apart; a failure after minHealthyPeriod starts a new
 * chain at 0. So `retryCount` is the number of replacements in the chain that already failed.
 *
 * One remediation is not a loop. We count the failed replacements —
 * retryCount, plus the current replacement when it fails too (being deleted, or no healthy Node past
 * the MHC nodeStartupTimeout), plus replacements earlier scans saw vanish without ever getting a
 * Node — and report a loop from two failures on. A replacement that is healthy ends the chain: no
 * finding, whatever its retryCount (a successful remediation, retryCount 1, is not a loop).
 */
export const capiRemediationLoopingAnalyzer: Analyzer = {
  id: 'capi.remediation-looping',
  analyze(ctx): FindingDraft[] {
    const out: FindingDraft[] = [];
    const snap = ctx.snapshot;
    const leader = findLeaderUnreachableCause(snap);
    const present = new Set(snap.capi.machines.map((m) => `${m.metadata.namespace}/${m.metadata.name}`));
    for (const m of snap.capi.machines) {
      const rf = parseRemediationFor(m);
      if (!rf) continue;
      const i = machineInfo(m);
      const state = replacementState(ctx.snapshot, m, ctx.now);
      if (state.kind === 'healthy') continue;
      // History: replacements of the same owner seen in earlier scans, gone now, never with a Node
      // (an old machine replaced by a rolling upgrade had one: it is not a failed replacement).
      const owner = i.kcpName ? `KubeadmControlPlane/${i.kcpName}` : undefined;
      const everNode = new Set<string>();
      const seen = new Set<string>();
      for (const scan of ctx.history.scans) {
        for (const s of scan.machines) {
          if (!owner || s.owner !== owner || s.namespace !== i.namespace || present.has(`${s.namespace}/${s.name}`))
            continue;
          seen.add(s.name);
          if (s.nodeName) everNode.add(s.name);
        }
      }
      const goneFailed = [...seen].filter((n) => !everNode.has(n)).sort();
      const failures = Math.max((rf.retryCount ?? 0) + (state.kind === 'failing' ? 1 : 0), goneFailed.length);
      if (failures < LOOP_FAILURES) continue;

      const kcp = i.kcpName
        ? snap.capi.kubeadmControlPlanes.find(
            (k) => k.metadata.name === i.kcpName && (k.metadata.namespace ?? 'default') === i.namespace,
          )
        : undefined;
      const kcpStatus = kcp ? readCapiStatus(kcp) : undefined;
      const limits = kcpStatus?.remediationLimits;
      const severity = i.controlPlane && failures >= CRITICAL_CP_FAILURES ? 'critical' : 'warning';
      const evidence = [
        `annotation ${REMEDIATION_FOR_ANNOTATION}=${rf.raw}`,
        describeMachine(m, ctx.now),
        `current replacement: ${state.detail}`,
      ];
      if (rf.retryCount === undefined) evidence.push('remediation-for annotation has no readable retryCount');
      if (goneFailed.length)
        evidence.push(
          `earlier scans saw ${goneFailed.length} replacement machine(s) of ${owner} vanish without ever getting a Node: ${goneFailed.join(', ')}`,
        );
      const last = kcpStatus?.lastRemediation;
      if (last?.machine)
        evidence.push(
          `KubeadmControlPlane ${i.namespace}/${i.kcpName} status.lastRemediation: machine=${last.machine}${last.retryCount !== undefined ? `, retryCount=${last.retryCount}` : ''}${last.time ? `, time=${last.time}` : ''}`,
        );
      if (limits?.maxRetry !== undefined && (rf.retryCount ?? 0) >= limits.maxRetry) {
        evidence.push(
          `maxRetry ${limits.maxRetry} reached: KCP will not remediate this machine again (raise maxRetry or fix the cause, then delete the machine by hand)`,
        );
      }
      const missing: string[] = [];
      if (state.kind === 'unknown') missing.push(`whether replacement ${i.name} is healthy: ${state.detail}`);
      const byLeader = i.controlPlane && leader;
      out.push({
        id: 'capi.remediation-looping',
        severity,
        section: 'machines',
        title: `Remediation of ${rf.machine ?? 'a machine'}: ${failures} replacements failed in a row (latest ${i.namespace}/${i.name})`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause: byLeader
          ? `each replacement control-plane machine fails to join: ${leader.text}.`
          : `Each replacement fails the same way within minHealthyPeriod (${formatAge((limits?.minHealthyPeriodSeconds ?? DEFAULT_MIN_HEALTHY_PERIOD_SECONDS) * 1000)}); retrying will not help until the underlying cause is fixed.`,
        causedBy: byLeader ? [leader.fingerprint] : undefined,
        since: rf.timestamp,
        missing: missing.length ? missing : undefined,
        // The loop breaker: a replacement cannot fix an unreachable etcd leader; pausing the
        // MachineHealthCheck stops the churn while people fix etcd (never on missing evidence).
        remediations:
          byLeader && !missing.length
            ? proposePauseRemediation(snap, [m], `an etcd leader that does not answer (${leader.leaderName})`)
            : [],
      });
    }
    return out;
  },
};

type ReplacementState = { kind: 'healthy' | 'failing' | 'starting' | 'unknown'; detail: string };

/**
 * The latest replacement's own outcome: healthy (its Node Ready, from the Node or the Machine's
 * conditions), failing (being deleted, Node not Ready, or no Node past the nodeStartupTimeout of the
 * MHC that covers it, 10 min by default), still starting, or unknown.
 */
function replacementState(snapshot: Snapshot, m: KubeObject, now: Date): ReplacementState {
  const i = machineInfo(m);
  if (i.deleting)
    return { kind: 'failing', detail: `being deleted (deletionTimestamp ${m.metadata.deletionTimestamp ?? '?'})` };
  const node = i.nodeName ? snapshot.nodes.find((n) => n.metadata.name === i.nodeName) : undefined;
  const health = readMachineHealth(m, node);
  if (i.nodeName && health.status === 'True') return { kind: 'healthy', detail: `${health.source} True` };
  const age = ageMinutes(m.metadata.creationTimestamp, now);
  const mhc = findMachineHealthCheck(snapshot, m, 'Unknown');
  const startup = mhc ? readMhcStatus(mhc.mhc).nodeStartupTimeoutSeconds : DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS;
  if (!i.nodeName) {
    if (age === undefined) return { kind: 'unknown', detail: 'no Node and no creationTimestamp' };
    if (age * 60 < startup)
      return {
        kind: 'starting',
        detail: `no Node yet, created ${formatAge(age * 60000)} ago (nodeStartupTimeout ${formatAge(startup * 1000)})`,
      };
    return {
      kind: 'failing',
      detail: `no Node ${formatAge(age * 60000)} after creation (nodeStartupTimeout ${formatAge(startup * 1000)})`,
    };
  }
  if (health.status === 'False' || health.status === 'Unknown')
    return {
      kind: 'failing',
      detail: `${health.source} ${health.status}${health.condition?.reason ? ` reason=${health.condition.reason}` : ''}`,
    };
  return { kind: 'unknown', detail: `Node ${i.nodeName} not read and no readiness condition on the Machine` };
}
