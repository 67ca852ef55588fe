import { describe, expect, it } from '@jest/globals';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { SEVERITY_RANK, type Finding } from '../../src/diagnose/finding.js';
import { findAction } from '../../src/approvals/actions/index.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderText } from '../../src/report/render-text.js';
import type { Report } from '../../src/report/report.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { listRealCases, type ActionMatch, type RealCase } from '../support/real-cases.js';

/**
 * Diagnosis on captures of real clusters made by other people. Each case states the
 * behaviour an SRE needs (ids present/absent, worst severity, fixes proposed or never proposed),
 * not a copy of today's output.
 */
const cases = listRealCases();

async function run(c: RealCase): Promise<Report> {
  const history = new InMemoryHistory();
  let report: Report | undefined;
  for (const dir of c.scans) {
    const snap = await loadDump(dir);
    report = await scanSnapshot(snap, {
      history,
      thresholds: DEFAULT_THRESHOLDS,
      now: c.expected.now ? new Date(c.expected.now) : undefined,
    });
  }
  return report!;
}

const matches = (m: ActionMatch, action: string, params: Record<string, unknown>) =>
  m.action === action && Object.entries(m.params ?? {}).every(([k, v]) => String(params[k]) === String(v));

describe('the corpus of real captures', () => {
  it('holds at least 12 cases, each naming its source and licence, covering every defect class 1–12', () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
    for (const c of cases) {
      expect(`${c.name}: ${/^\s*(?:[-*]\s*)?\**source\**:/im.test(c.readme)}`).toBe(`${c.name}: true`);
      expect(`${c.name}: ${/^\s*(?:[-*]\s*)?\**licen[cs]e\**:/im.test(c.readme)}`).toBe(`${c.name}: true`);
    }
    const covered = new Set(cases.flatMap((c) => c.expected.defects));
    const uncovered = [...Array(12).keys()].map((i) => i + 1).filter((d) => !covered.has(d));
    expect(uncovered).toEqual([]);
    // Real healthy clusters are part of the corpus: they must produce nothing above info.
    expect(
      cases.filter((c) => c.expected.maxSeverity === 'info' || c.expected.maxSeverity === 'none').length,
    ).toBeGreaterThanOrEqual(3);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const e = c.expected;
    const report = await run(c);
    const ids = report.findings.map((f) => f.id);
    const worst = report.findings.reduce<Finding['severity'] | 'none'>(
      (w, f) => (w === 'none' || SEVERITY_RANK[f.severity] < SEVERITY_RANK[w] ? f.severity : w),
      'none',
    );
    const summary = report.findings.map((f) => `${f.severity} ${f.id} ${f.subject.name}`);
    expect({ worst, summary }).toEqual({ worst: e.maxSeverity, summary });
    if (e.status) expect(report.status).toBe(e.status);
    for (const [id, status] of Object.entries(e.sections ?? {})) {
      expect(`${id}: ${report.sections.find((s) => s.id === id)?.status}`).toBe(`${id}: ${status}`);
    }
    for (const id of e.present ?? []) expect(ids).toContain(id);
    for (const id of e.absent ?? []) expect(ids).not.toContain(id);
    const proposals = report.findings.flatMap((f) => f.remediations.map((r) => ({ f: f.id, ...r })));
    for (const want of e.proposes ?? []) {
      expect(
        proposals.some((p) => matches(want, p.action, p.params)) ? 'proposed' : `not proposed: ${JSON.stringify(want)}`,
      ).toBe('proposed');
    }
    for (const bad of e.mustNotPropose ?? []) {
      const hit = proposals.find((p) => matches(bad, p.action, p.params));
      expect(hit ? `${hit.f} proposes ${hit.action} ${JSON.stringify(hit.params)}` : 'ok').toBe('ok');
    }
    for (const [id, parts] of Object.entries(e.missing ?? {})) {
      const f = report.findings.find((x) => x.id === id);
      expect(f?.confidence === 'high' ? `${id} claims high confidence` : 'ok').toBe('ok');
      for (const part of parts) expect((f?.missing ?? []).join('\n')).toContain(part);
    }
    const json = renderJson(report);
    for (const s of e.jsonContains ?? []) expect(json).toContain(s);
    const text = renderText(report, { now: new Date(report.generatedAt) });
    for (const s of e.textContains ?? []) expect(text).toContain(s);
    for (const s of e.textLacks ?? []) expect(text).not.toContain(s);
    // Every finding explains itself, and every fix it proposes is a valid plan of the catalog.
    for (const f of report.findings) {
      expect(f.evidence.length).toBeGreaterThan(0);
      for (const r of f.remediations)
        expect((await findAction(r.action).plan(report.cluster, r.params)).action).toBe(r.action);
    }
  });
});
