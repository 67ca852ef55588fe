import type { Finding } from '../diagnose/finding.js';
import type { HistoryView } from '../diagnose/history.js';

/**
 * Each finding with `firstSeen`: the analysis time of the earliest scan in the unbroken run
 * of earlier scans (newest backwards) whose record holds its fingerprint, else `now` (this scan is the
 * first to see it). History keeps warning and critical findings only, so an info finding is first seen
 * now. A gap (a scan without it) starts the run again: a finding that came back is new again.
 */
export function stampFirstSeen(findings: readonly Finding[], history: HistoryView, now: Date): Finding[] {
  const at = Number.isNaN(now.getTime()) ? undefined : now.toISOString();
  return findings.map((f) => {
    let first = at;
    for (let i = history.scans.length - 1; i >= 0; i--) {
      const scan = history.scans[i]!;
      if (!scan.findings.some((h) => h.fingerprint === f.fingerprint)) break;
      first = scan.at;
    }
    return first ? { ...f, firstSeen: first } : { ...f };
  });
}
