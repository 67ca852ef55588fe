import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { RemediationPlan } from './remediation-plan.js';

/**
 * sha256 of the canonical JSON of action + params + preconditions (keys sorted at every level), so
 * the hash an approver saw is the hash that runs: any change to what is relied on changes it.
 */
export function hashPlan(plan: Pick<RemediationPlan, 'action' | 'params' | 'preconditions'>): string {
  return createHash('sha256')
    .update(canonicalJson({ action: plan.action, params: plan.params, preconditions: plan.preconditions }))
    .digest('hex');
}
