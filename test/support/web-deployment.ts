import type { KubeObject } from '../../src/cluster/snapshot.js';
import type { RemediationProposal } from '../../src/diagnose/finding.js';

/** A plain workload to propose fixes on: shop/web, three replicas. */
export const web: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

/** The fix the approval tests propose on it: scale shop/web to 0 (a real write, undone by scaling back). */
export const scaleWeb: RemediationProposal = {
  action: 'deployment.scale',
  params: { namespace: 'shop', name: 'web', replicas: 0 },
  label: 'Scale shop/web to 0',
  risk: 'r',
};
