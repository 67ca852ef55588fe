import type { Snapshot } from '../cluster/snapshot.js';
import type { AnalysisResult } from '../diagnose/analyze-snapshot.js';
import { SECTION_IDS, type Finding, type SectionId } from '../diagnose/finding.js';
import type { HealthStatus, Report, SectionSummary } from './report.js';
import { summarizeSection } from './summarize-section.js';

/**
 * The report model (like clusterctl describe's tree, separate from any printer): overall status,
 * one summary line per section with counts, findings worst first, and what could not be read.
 */
export function buildReport(snapshot: Snapshot, analysis: AnalysisResult, opts: { generatedAt: Date }): Report {
  const sections: SectionSummary[] = SECTION_IDS.map((id) => {
    const inSection = analysis.findings.filter((f) => f.section === id);
    const { summary, hasData } = summarizeSection(id, snapshot);
    return { id, status: sectionStatus(inSection, hasData), summary };
  });
  return {
    cluster: snapshot.cluster,
    generatedAt: opts.generatedAt.toISOString(),
    collectedAt: snapshot.collectedAt,
    status: overallStatus(analysis.findings, sections),
    sections,
    findings: analysis.findings,
    partial: [...snapshot.partial, ...analysis.errors],
  };
}

function sectionStatus(findings: Finding[], hasData: boolean): HealthStatus {
  if (findings.some((f) => f.severity === 'critical')) return 'critical';
  if (findings.some((f) => f.severity === 'warning')) return 'degraded';
  return hasData ? 'healthy' : 'unknown';
}

function overallStatus(findings: Finding[], sections: SectionSummary[]): HealthStatus {
  if (findings.some((f) => f.severity === 'critical')) return 'critical';
  if (findings.some((f) => f.severity === 'warning')) return 'degraded';
  // Nothing wrong found, but nothing read either: say so rather than "healthy".
  return sections.every((s) => s.status === 'unknown') ? 'unknown' : 'healthy';
}

export type { SectionId };
