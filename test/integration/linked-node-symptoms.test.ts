import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { analyzeAlertChanges } from '../../src/alerts/analyze-alert-changes.js';
import { EMPTY_ALERT_STATE } from '../../src/alerts/incident.js';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

const scenario = (name: string) => path.resolve('examples/scenarios', name);
const opts = { channel: 'C0ALERTS', resolveAfterScans: 3, flapWindowMinutes: 30 };

async function scan(name: string) {
  const report = await scanSnapshot(await loadDump(scenario(name)), {
    history: new InMemoryHistory(),
    thresholds: DEFAULT_THRESHOLDS,
  });
  const by = new Map(report.findings.map((f) => [f.fingerprint, f]));
  const causes = (f: Finding) => (f.causedBy ?? []).map((fp) => `${by.get(fp)!.id} ${by.get(fp)!.subject.name}`);
  const find = (id: string) => report.findings.find((f) => f.id === id)!;
  return { report, causes, find };
}

describe('symptoms of one node fault are linked to it: one root cause, one alert thread', () => {
  it('a control-plane node whose CNI never initialized: NotReady, the remediation loop and the degraded control plane all point at the CNI finding', async () => {
    const { report, causes, find } = await scan('remediation-exhausted-kcp-maxretry');
    expect(causes(find('node.not-ready'))).toEqual(['node.cni-not-initialized shop-prod-cp-wd8vn']);
    expect(causes(find('capi.remediation-looping'))).toEqual(['node.cni-not-initialized shop-prod-cp-wd8vn']);
    expect(causes(find('controlplane.degraded'))).toEqual(['node.cni-not-initialized shop-prod-cp-wd8vn']);
    expect(causes(find('capi.remediation-exhausted'))).toEqual(['capi.remediation-looping shop-prod-cp-wd8vn']);

    const { changed } = analyzeAlertChanges(EMPTY_ALERT_STATE, report, opts);
    expect(changed.map((i) => `${i.finding.id} ${i.finding.subject.name}`)).toEqual([
      'node.cni-not-initialized shop-prod-cp-wd8vn',
    ]);
    const [thread] = changed;
    expect((thread!.symptoms ?? []).map((s) => s.id).sort()).toEqual([
      'capi.remediation-exhausted',
      'capi.remediation-looping',
      'controlplane.degraded',
      'node.not-ready',
    ]);
    // The thread is as grave as the worst thing the fault causes.
    expect(thread!.severity).toBe('critical');
  });

  it('CNI pods refused by a webhook: the CNI symptoms and the recreation loop end at the webhook, NotReady at the CNI', async () => {
    const { report, causes, find } = await scan('s3-recreation-loop-webhook-down');
    const webhook = 'webhook.unavailable-blocking kyverno-resource-validating-webhook-cfg';
    expect(causes(find('node.cni-not-initialized'))).toEqual([webhook]);
    expect(causes(find('cni.pod-not-running'))).toEqual([webhook]);
    expect(causes(find('capi.recreation-loop'))).toEqual([webhook]);
    expect(causes(find('node.not-ready'))).toEqual(['node.cni-not-initialized tkc-prod-control-plane-k2v4d']);
    const { changed } = analyzeAlertChanges(EMPTY_ALERT_STATE, report, opts);
    const roots = changed.map((i) => i.finding.id);
    expect(roots).toContain('webhook.unavailable-blocking');
    expect(roots).not.toContain('node.cni-not-initialized');
    expect(roots).not.toContain('cni.pod-not-running');
  });

  it('a node NotReady for another reason stays a root cause of its own', async () => {
    const { find, causes } = await scan('s1-worker-powered-off');
    expect(causes(find('node.not-ready'))).toEqual([]);
  });
});
