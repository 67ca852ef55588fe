import type { Snapshot, PartialEntry } from '../cluster/snapshot.js';
import type { Thresholds } from '../config/config-schema.js';
import type { Analyzer, AnalysisContext } from './analyzer.js';
import { applyUnknownTime } from './apply-unknown-time.js';
import { SECTION_IDS, SEVERITY_RANK, type Finding } from './finding.js';
import { fingerprint } from './fingerprint.js';
import type { HistoryView } from './history.js';
import { linkCauses } from './link-causes.js';
import { linkSymptoms } from './link-symptoms.js';
import { addCorrelationKeys } from './add-correlation-keys.js';
import { describeError } from '../errors/describe-error.js';

export interface AnalysisResult {
  findings: Finding[];
  /** Analyzers that threw: reported as partial data, never sinking the report. */
  errors: PartialEntry[];
}

/**
 * Run every analyzer over one snapshot. Pure and deterministic: the same inputs give the same
 * findings in the same order (severity, section, id, subject).
 */
export function analyzeSnapshot(
  snapshot: Snapshot,
  analyzers: readonly Analyzer[],
  opts: { history: HistoryView; thresholds: Thresholds; now: Date; timeUnknown?: boolean },
): AnalysisResult {
  const ctx: AnalysisContext = { snapshot, history: opts.history, thresholds: opts.thresholds, now: opts.now };
  if (opts.timeUnknown) ctx.timeUnknown = true;
  const findings: Finding[] = [];
  const errors: PartialEntry[] = [];
  const seen = new Set<string>();
  for (const analyzer of analyzers) {
    let drafts;
    try {
      drafts = analyzer.analyze(ctx);
    } catch (err) {
      errors.push({ source: `analyzer ${analyzer.id}`, error: describeError(err) });
      continue;
    }
    for (const raw of drafts) {
      const d = ctx.timeUnknown ? applyUnknownTime(raw) : raw;
      const f: Finding = {
        ...d,
        confidence: d.confidence ?? (d.missing?.length ? 'medium' : 'high'),
        fingerprint: fingerprint(snapshot.cluster, d.id, d.subject),
      };
      if (seen.has(f.fingerprint)) continue; // one finding per id and subject
      seen.add(f.fingerprint);
      findings.push(f);
    }
  }
  return { findings: sortFindings(addCorrelationKeys(linkCauses(linkSymptoms(findings, snapshot)), snapshot)), errors };
}

/**
 * Worst first: severity; within a severity, root causes (findings others name in `causedBy`) before
 * their symptoms, so the first line an SRE reads is the cause; then section display order, id, subject.
 */
export function sortFindings(findings: Finding[]): Finding[] {
  const sectionRank = (s: string) => SECTION_IDS.indexOf(s as (typeof SECTION_IDS)[number]);
  const subjectKey = (f: Finding) => `${f.subject.kind}/${f.subject.namespace ?? ''}/${f.subject.name}`;
  const causes = new Set(findings.flatMap((f) => f.causedBy ?? []));
  const causeRank = (f: Finding) => (causes.has(f.fingerprint) && !f.causedBy?.length ? 0 : 1);
  return [...findings].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      causeRank(a) - causeRank(b) ||
      sectionRank(a.section) - sectionRank(b.section) ||
      a.id.localeCompare(b.id) ||
      subjectKey(a).localeCompare(subjectKey(b)),
  );
}
