import { createHash } from 'node:crypto';
import type { RemediationPlan } from './remediation-plan.js';

/**
 * sha256 of the canonical JSON of action + params + preconditions (keys sorted at every level), so
 * the hash an approver saw is the hash that runs: any change to what is relied on changes it.
 */
export function hashPlan(plan: Pick<RemediationPlan, 'action' | 'params' | 'preconditions'>): string {
  return createHash('sha256').update(canonicalJson({ action: plan.action, params: plan.params, preconditions: plan.preconditions })).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
