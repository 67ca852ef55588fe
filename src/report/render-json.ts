import type { Report } from './report.js';

/**
 * The JSON report of docs/design.md (`--output json`), stable key order, pretty-printed. An unknown capture
 * time is `"collectedAt": null` with `"collectedAtFrom": "unknown"`; one inferred from the data has
 * `"collectedAtFrom": "data"`; a recorded one has no collectedAtFrom (defect class 8).
 * `changedSinceHealthy` (docs/diagnosis.md "What changed since last healthy") follows the findings.
 */
export function renderJson(report: Report): string {
  const { cluster, generatedAt, collectedAtFrom, status, sections, findings, partial, changedSinceHealthy } = report;
  const collectedAt = report.collectedAt || null;
  const time = collectedAtFrom ? { collectedAt, collectedAtFrom } : { collectedAt };
  // Present only on a report that is not healthy and has a healthy baseline to compare with.
  const changes = changedSinceHealthy ? { changedSinceHealthy } : {};
  return (
    JSON.stringify({ cluster, generatedAt, ...time, status, sections, findings, ...changes, partial }, null, 2) + '\n'
  );
}
