import type { Report } from './report.js';

/**
 * Proactive findings: they describe a risk, not something failing, and may stay for months (a third-party
 * webhook that does not exclude kube-system). They do not keep a scan from being a healthy baseline.
 */
const PROACTIVE = new Set(['webhook.system-namespaces-not-excluded']);

/**
 * Is this report a "last healthy" baseline for "what changed"? No critical or warning finding
 * other than proactive ones, and not `unknown` (its key sections were read: a capture missing the nodes
 * proves nothing). A section degraded by its own line (a pod in CrashLoopBackOff that no finding covers)
 * does not disqualify it: otherwise one chronically crashing app would mean no baseline ever.
 */
export function isHealthyBaseline(report: Report): boolean {
  if (report.status === 'unknown' || report.status === 'critical') return false;
  return report.findings.every((f) => f.severity === 'info' || PROACTIVE.has(f.id));
}
