import type { Report } from './report.js';

/** The JSON report of DESIGN.md (`--output json`), stable key order, pretty-printed. */
export function renderJson(report: Report): string {
  const { cluster, generatedAt, collectedAt, status, sections, findings, partial } = report;
  return JSON.stringify({ cluster, generatedAt, collectedAt, status, sections, findings, partial }, null, 2) + '\n';
}
