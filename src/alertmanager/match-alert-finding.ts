import type { Finding, FindingSubject } from '../diagnose/finding.js';
import { SEVERITY_RANK } from '../diagnose/finding.js';
import { findRootCauses } from '../report/find-root-causes.js';
import { ALERT_RULES, nodeObjects, podObjects, type AlertRule } from './alert-rules.js';

const BY_NAME = new Map(ALERT_RULES.map((r) => [r.alertname, r]));

/** The finding an alert is about and its root cause (the incident whose thread it joins). */
export interface FindingMatch {
  finding: Finding;
  root: Finding;
  /** `rule`: the rule-name table; `object`: the generic rule by object labels. */
  by: 'rule' | 'object';
}

/**
 * The bot's finding on the same object and symptom as a Prometheus alert (alert-rules.ts), and the
 * deepest cause of that finding (report/find-root-causes.ts): that cause's incident is one thread,
 * so every alert about its symptoms lands there. Among several matches the most severe wins, then
 * the rule's own order, then the report's (deterministic). Pure.
 */
export function matchAlertFinding(
  labels: Readonly<Record<string, string>>,
  findings: readonly Finding[],
): FindingMatch | undefined {
  const alerting = findings.filter((f) => f.severity !== 'info');
  const rule = BY_NAME.get(labels.alertname ?? '');
  // The most severe wins; among equals, the rule's own order (its most specific symptom first), then the report's.
  const order = (f: Finding) => {
    const i = rule ? [...rule.findings, ...(rule.anySubject ?? [])].indexOf(f.id) : -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const pick = (candidates: Finding[], by: FindingMatch['by']): FindingMatch | undefined => {
    const best = [...candidates].sort(
      (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (by === 'rule' ? order(a) - order(b) : 0),
    )[0];
    if (!best) return undefined;
    const chain = findRootCauses(best, findings);
    return { finding: best, root: chain[chain.length - 1] ?? best, by };
  };
  if (rule) {
    const found = pick(
      alerting.filter(
        (f) =>
          (rule.findings.includes(f.id) && onObjects(f.subject, rule, labels)) ||
          (rule.anySubject?.includes(f.id) ?? false),
      ),
      'rule',
    );
    if (found) return found;
  }
  const objects = [...nodeObjects(labels).filter(() => labels.node !== undefined), ...podObjects(labels)];
  if (objects.length === 0) return undefined;
  return pick(
    alerting.filter((f) => objects.some((o) => sameObject(f.subject, o))),
    'object',
  );
}

function onObjects(subject: FindingSubject, rule: AlertRule, labels: Readonly<Record<string, string>>): boolean {
  return rule.objects === undefined || rule.objects(labels).some((o) => sameObject(subject, o));
}

function sameObject(a: FindingSubject, b: FindingSubject): boolean {
  return a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}
