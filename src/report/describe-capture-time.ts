import type { Report } from './report.js';
import { ageOf } from './age-of.js';

/**
 * How the report states when its data was captured (defect class 8), for every renderer:
 * "data collected 2025-03-01T10:00:00Z, 40s ago"; "capture time inferred from the newest timestamp in
 * the data: 2022-02-03T19:02:54Z, 3y ago"; "capture time unknown (no meta.json and no timestamp in the data)".
 */
export function describeCaptureTime(report: Pick<Report, 'collectedAt' | 'collectedAtFrom'>, now: Date): string {
  if (report.collectedAtFrom === 'unknown' || !report.collectedAt)
    return 'capture time unknown (no meta.json and no timestamp in the data)';
  const age = ageOf(report.collectedAt, now);
  const when = `${report.collectedAt}${age ? `, ${age} ago` : ''}`;
  return report.collectedAtFrom === 'data'
    ? `capture time inferred from the newest timestamp in the data: ${when}`
    : `data collected ${when}`;
}
