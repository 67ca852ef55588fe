import { createHash } from 'node:crypto';
import type { RemediationProposal } from '../../diagnose/finding.js';
import { canonicalJson } from '../canonical-json.js';

/**
 * The identity of a fix, whichever message offers it (an alert parent, an answer card, Details):
 * the cluster, the catalog action and its parameters. One request per fix is pending at a time, and
 * a fix that ran is known by this key (approval-stores.ts claimFix, markFixRan).
 */
export function fixKey(cluster: string, proposal: Pick<RemediationProposal, 'action' | 'params'>): string {
  return createHash('sha256')
    .update(canonicalJson({ cluster, action: proposal.action, params: proposal.params ?? {} }))
    .digest('hex')
    .slice(0, 32);
}
