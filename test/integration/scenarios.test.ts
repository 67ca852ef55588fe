import { describe, expect, it } from '@jest/globals';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { isSystemWebhook } from '../../src/diagnose/facts/is-system-webhook.js';
import type { Report } from '../../src/report/report.js';
import { findAction } from '../../src/approvals/actions/index.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { listScenarios, type Scenario } from '../support/scenarios.js';

/** Replay a scenario's dumps as successive scans, as `check --from A --from B` does. */
async function runScenario(s: Scenario): Promise<Report> {
  const history = new InMemoryHistory();
  let report: Report | undefined;
  for (const dir of s.scans) {
    const snap = await loadDump(dir);
    report = await scanSnapshot(snap, { history, thresholds: DEFAULT_THRESHOLDS });
  }
  return report!;
}

const key = (f: { id: string; severity: string; subject: { kind: string; namespace?: string; name: string } }) =>
  `${f.severity} ${f.id} ${f.subject.kind}/${f.subject.namespace ?? ''}/${f.subject.name}`;

const scenarios = listScenarios();

describe('scenario dumps give exactly their expected findings', () => {
  it('has the five field reports and the benign look-alikes', () => {
    const seeds = new Set(scenarios.map((s) => s.expected.seed).filter(Boolean));
    expect(seeds.size).toBe(5);
    expect(scenarios.filter((s) => s.name.startsWith('benign-')).length).toBeGreaterThanOrEqual(4);
  });

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const report = await runScenario(s);
    expect(report.findings.map(key).sort()).toEqual(s.expected.findings.map(key).sort());
    expect(report.partial.filter((p) => p.source.startsWith('analyzer '))).toEqual([]);
    if (s.name.startsWith('benign-')) expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    for (const f of report.findings) {
      expect(f.evidence.length).toBeGreaterThan(0);
      for (const bad of s.expected.mustNotPropose ?? []) {
        for (const r of f.remediations) {
          const matches =
            r.action === bad.action && Object.entries(bad.params ?? {}).every(([k, v]) => r.params[k] === v);
          expect(matches ? `${f.id} proposes ${r.action} ${JSON.stringify(r.params)}` : 'ok').toBe('ok');
        }
      }
    }
  });
});

describe('every proposed fix is a valid plan of the remediation catalog', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const report = await runScenario(s);
    for (const f of report.findings) {
      for (const r of f.remediations) {
        // The catalog freezes the analyzer's params into a plan; bad or mismatched params throw here.
        const plan = await findAction(r.action).plan(report.cluster, r.params);
        expect(plan.action).toBe(r.action);
      }
    }
  });
});

describe('seed rules hold in every scenario', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))(
    '%s: no system webhook suspended, node removal only for gone nodes, exact etcd ids',
    async (_name, s) => {
      const report = await runScenario(s);
      const snap = await loadDump(s.scans[s.scans.length - 1]!);
      const webhooks = [...snap.validatingWebhooks, ...snap.mutatingWebhooks];
      const memberIds = new Set((snap.etcd?.members ?? []).map((m) => m.id));
      for (const f of report.findings) {
        for (const r of f.remediations) {
          expect(r.label.length).toBeLessThanOrEqual(75);
          expect(r.risk.length).toBeGreaterThan(0);
          if (r.action === 'webhook.suspend') {
            const cfg = webhooks.find((w) => w.metadata.name === r.params.name);
            expect(cfg).toBeDefined();
            expect(isSystemWebhook(cfg!)).toBe(false);
          }
          if (r.action === 'etcd.move-leader' || r.action === 'etcd.remove-member') {
            const id = String(r.params.targetMemberId ?? r.params.memberId);
            expect(memberIds.has(id)).toBe(true);
          }
          if (r.action === 'node.delete' || r.action === 'node.out-of-service') {
            const node = snap.nodes.find((n) => n.metadata.name === r.params.name);
            const ready = node?.status?.conditions?.find((c: { type: string }) => c.type === 'Ready')?.status;
            expect(ready).not.toBe('True');
          }
        }
      }
    },
  );
});
