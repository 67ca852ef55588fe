import type { Analyzer, FindingDraft } from '../analyzer.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { machineInfo } from '../facts/machine-info.js';
import { parseRemediationFor, REMEDIATION_FOR_ANNOTATION } from '../facts/parse-remediation-for.js';

/** Control-plane remediation retried this often is critical (seed S0 showed retryCount 819). */
const CRITICAL_CP_RETRIES = 3;

/**
 * Seed S0: KCP remediates the same failed control-plane machine again and again; the replacement's
 * `remediation-for` annotation counts the retries. Earlier scans add the replacements seen come and go.
 */
export const capiRemediationLoopingAnalyzer: Analyzer = {
  id: 'capi.remediation-looping',
  analyze(ctx): FindingDraft[] {
    const out: FindingDraft[] = [];
    const leader = findLeaderUnreachableCause(ctx.snapshot);
    const present = new Set(ctx.snapshot.capi.machines.map((m) => `${m.metadata.namespace}/${m.metadata.name}`));
    for (const m of ctx.snapshot.capi.machines) {
      const rf = parseRemediationFor(m);
      if (!rf) continue;
      const i = machineInfo(m);
      // History: replacements of the same owner seen in earlier scans and gone now.
      const owner = i.kcpName ? `KubeadmControlPlane/${i.kcpName}` : undefined;
      const gone = new Set<string>();
      for (const scan of ctx.history.scans) {
        for (const s of scan.machines) {
          if (owner && s.owner === owner && s.namespace === i.namespace && !present.has(`${s.namespace}/${s.name}`)) gone.add(s.name);
        }
      }
      const retries = Math.max(rf.retryCount ?? 0, gone.size);
      if (retries < 1) continue;
      const severity = i.controlPlane && retries >= CRITICAL_CP_RETRIES ? 'critical' : 'warning';
      const evidence = [`annotation ${REMEDIATION_FOR_ANNOTATION}=${rf.raw}`, describeMachine(m, ctx.now)];
      if (rf.retryCount === undefined) evidence.push('remediation-for annotation has no readable retryCount');
      if (gone.size) evidence.push(`earlier scans saw ${gone.size} replaced machine(s) of ${owner}: ${[...gone].sort().join(', ')}`);
      const byLeader = i.controlPlane && leader;
      out.push({
        id: 'capi.remediation-looping',
        severity,
        section: 'machines',
        title: `Remediation of ${rf.machine ?? 'a machine'} retried ${retries} times (latest replacement ${i.namespace}/${i.name})`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause: byLeader
          ? `each replacement control-plane machine fails to join: ${leader.text}.`
          : 'Each replacement fails the same way; retrying will not help until the underlying cause is fixed.',
        causedBy: byLeader ? [leader.fingerprint] : undefined,
        since: rf.timestamp,
        remediations: [],
      });
    }
    return out;
  },
};
