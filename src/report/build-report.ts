import type { Snapshot } from '../cluster/snapshot.js';
import type { AnalysisResult } from '../diagnose/analyze-snapshot.js';
import { SECTION_IDS, type Finding, type SectionId } from '../diagnose/finding.js';
import type { HealthStatus, Report, SectionSummary } from './report.js';
import { summarizeSection, type SectionLine } from './summarize-section.js';

/**
 * The sections without which "healthy" says nothing: the API server answered, its nodes were read, its
 * pods were read. When one of them is unknown and nothing is wrong, the report is `unknown`, not
 * `healthy` (defect class 9; docs/diagnosis.md "Unknown sections"). etcd, Cluster API
 * machines, upgrades and webhooks may be legitimately absent (a managed control plane, a cluster
 * without Cluster API, a capture that holds no webhook configurations): their own line is grey and
 * says why, and the overall status does not pretend they were checked — but does not hide the rest.
 */
export const KEY_SECTIONS: readonly SectionId[] = ['apiserver', 'nodes', 'workloads'];

/**
 * The report model (like clusterctl describe's tree, separate from any printer): overall status,
 * one summary line per section with counts, findings worst first, and what could not be read.
 */
export function buildReport(snapshot: Snapshot, analysis: AnalysisResult, opts: { generatedAt: Date }): Report {
  const sections: SectionSummary[] = SECTION_IDS.map((id) => {
    const inSection = analysis.findings.filter((f) => f.section === id);
    const line = summarizeSection(id, snapshot);
    return { id, status: sectionStatus(inSection, line), summary: line.summary };
  });
  const report: Report = {
    cluster: snapshot.cluster,
    generatedAt: opts.generatedAt.toISOString(),
    collectedAt: snapshot.collectedAt,
    status: overallStatus(analysis.findings, sections),
    sections,
    findings: analysis.findings,
    partial: [...snapshot.partial, ...analysis.errors],
  };
  if (snapshot.collectedAtFrom && snapshot.collectedAtFrom !== 'recorded')
    report.collectedAtFrom = snapshot.collectedAtFrom;
  return report;
}

/**
 * A section is as bad as its worst finding; without warning or critical findings it is `unknown`
 * when its data was not collected (never green by default), `degraded` when its own line counts
 * something unhealthy (a pod in CrashLoopBackOff, "0 of 1 control-plane nodes Ready"), and `healthy`
 * only when it counted something and everything it counted is fine: green means something was counted.
 */
export function sectionStatus(findings: readonly Finding[], line: SectionLine): HealthStatus {
  if (findings.some((f) => f.severity === 'critical')) return 'critical';
  if (findings.some((f) => f.severity === 'warning')) return 'degraded';
  if (!line.hasData) return 'unknown';
  if (line.degraded) return 'degraded';
  const c = line.counted;
  if (!c || c.total <= 0) return 'unknown';
  return c.ready < c.total ? 'degraded' : 'healthy';
}

/**
 * The overall status comes from findings alone: a critical finding makes it critical, a warning
 * degraded; info never raises it. A section line that counts trouble without a finding colours its
 * own line only: a status the report cannot explain with a finding is not given. Nothing wrong found
 * but a key section unread is `unknown`, not `healthy`.
 */
export function overallStatus(findings: readonly Finding[], sections: readonly SectionSummary[]): HealthStatus {
  if (findings.some((f) => f.severity === 'critical')) return 'critical';
  if (findings.some((f) => f.severity === 'warning')) return 'degraded';
  return sections.some((s) => s.status === 'unknown' && KEY_SECTIONS.includes(s.id)) ? 'unknown' : 'healthy';
}

export type { SectionId };
