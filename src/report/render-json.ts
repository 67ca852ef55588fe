import type { Report } from './report.js';

/**
 * The JSON report of DESIGN.md (`--output json`), stable key order, pretty-printed. An unknown capture
 * time is `"collectedAt": null` with `"collectedAtFrom": "unknown"`; one inferred from the data has
 * `"collectedAtFrom": "data"`; a recorded one has no collectedAtFrom (issue 13 defect class 8).
 */
export function renderJson(report: Report): string {
  const { cluster, generatedAt, collectedAtFrom, status, sections, findings, partial } = report;
  const collectedAt = report.collectedAt || null;
  const time = collectedAtFrom ? { collectedAt, collectedAtFrom } : { collectedAt };
  return JSON.stringify({ cluster, generatedAt, ...time, status, sections, findings, partial }, null, 2) + '\n';
}
