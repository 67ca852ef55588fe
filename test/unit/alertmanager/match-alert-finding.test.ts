import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ALERT_RULES } from '../../../src/alertmanager/alert-rules.js';
import { matchAlertFinding } from '../../../src/alertmanager/match-alert-finding.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../../src/config/config-schema.js';
import { FINDING_IDS } from '../../../src/diagnose/finding.js';
import type { Report } from '../../../src/report/report.js';
import { scanSnapshot } from '../../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../../src/store/in-memory-history.js';

/** The S3 scenario (docs/scenarios.md): a Kyverno webhook down blocks the CNI, control-plane nodes recreated. */
const S3 = 'examples/scenarios/s3-recreation-loop-webhook-down';
const NODE = 'tkc-prod-control-plane-k2v4d';

describe('a Prometheus alert → the finding on the same object and symptom → its root cause', () => {
  let report: Report;
  beforeAll(async () => {
    report = await scanSnapshot(await loadDump(S3), { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
  });
  const match = (labels: Record<string, string>) => {
    const m = matchAlertFinding(labels, report.findings);
    return m ? `${m.by} ${m.finding.id} → ${m.root.id}` : 'none';
  };

  it('five symptom alerts of S3 all lead to the blocking webhook', () => {
    expect(match({ alertname: 'KubeNodeNotReady', node: NODE })).toBe(
      'rule node.cni-not-initialized → webhook.unavailable-blocking',
    );
    expect(match({ alertname: 'KubeNodeUnreachable', node: NODE })).toBe(
      'rule node.cni-not-initialized → webhook.unavailable-blocking',
    );
    expect(match({ alertname: 'KubeletDown', instance: `${NODE}:10250` })).toBe(
      'rule node.cni-not-initialized → webhook.unavailable-blocking',
    );
    expect(match({ alertname: 'KubeDaemonSetRolloutStuck', namespace: 'kube-system', daemonset: 'antrea-agent' })).toBe(
      'rule cni.pod-not-running → webhook.unavailable-blocking',
    );
    expect(match({ alertname: 'KubeAPIErrorBudgetBurn', long: '1h', short: '5m' })).toBe(
      'rule webhook.unavailable-blocking → webhook.unavailable-blocking',
    );
  });

  it('an unknown rule on a known object goes through the generic rule; an unrelated pod matches nothing', () => {
    expect(match({ alertname: 'NodeFilesystemAlmostFull', node: NODE })).toBe(
      'object cni.pod-not-running → webhook.unavailable-blocking',
    );
    expect(match({ alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-7d9f' })).toBe('none');
    expect(match({ alertname: 'KubeNodeNotReady', node: 'some-other-node' })).toBe('none');
  });

  it('the rule table names only real finding ids, each rule once, and docs/alertmanager.md lists every rule', () => {
    const names = ALERT_RULES.map((r) => r.alertname);
    expect(new Set(names).size).toBe(names.length);
    for (const r of ALERT_RULES)
      for (const id of [...r.findings, ...(r.anySubject ?? [])]) expect(FINDING_IDS).toContain(id);
    const doc = readFileSync('docs/alertmanager.md', 'utf8');
    const documented = [...doc.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...names].sort());
  });
});
