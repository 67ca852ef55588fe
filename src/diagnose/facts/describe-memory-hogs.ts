import type { RemediationProposal } from '../finding.js';
import type { MemoryHog } from './find-control-plane-memory-hogs.js';
import { formatBytes } from './format-bytes.js';

/** Evidence lines and the deployment.scale proposal for the top memory users (seed S2). */
export function describeMemoryHogs(hogs: MemoryHog[]): { evidence: string[]; remediations: RemediationProposal[] } {
  const top = hogs.slice(0, 3);
  const evidence = top.map(
    (h) =>
      `top memory user on control-plane nodes: Deployment ${h.namespace}/${h.deployment} requests ${formatBytes(h.bytes)} on ${h.nodes.join(', ')}`,
  );
  const first = top[0];
  const remediations: RemediationProposal[] = first
    ? [
        {
          action: 'deployment.scale',
          params: { namespace: first.namespace, name: first.deployment, replicas: 0 },
          label: `Scale ${first.namespace}/${first.deployment} to 0`.slice(0, 75),
          risk: `Takes ${first.namespace}/${first.deployment} offline until scaled back${first.replicas !== undefined ? ` to ${first.replicas}` : ''}.`,
        },
      ]
    : [];
  return { evidence, remediations };
}
