import type { KubeObject } from '../../cluster/snapshot.js';

export const REMEDIATION_FOR_ANNOTATION = 'controlplane.cluster.x-k8s.io/remediation-for';

/** The KCP remediation-for annotation: which machine this one replaces and how often it was retried. */
export interface RemediationFor {
  raw: string;
  machine?: string;
  timestamp?: string;
  retryCount?: number;
}

/**
 * Parse `controlplane.cluster.x-k8s.io/remediation-for` (seed S0:
 * `{"machine":"it-tkg-mgmt-rg44c-gn5sw","timestamp":"2023-11-30T14:39:33Z","retryCount":819}`).
 * Malformed JSON gives the raw text only, never a throw.
 */
export function parseRemediationFor(m: KubeObject): RemediationFor | undefined {
  const raw = m.metadata.annotations?.[REMEDIATION_FOR_ANNOTATION];
  if (raw === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (!v || typeof v !== 'object') return { raw };
    const o = v as Record<string, unknown>;
    const retry = typeof o.retryCount === 'number' ? o.retryCount : Number(o.retryCount);
    return {
      raw,
      machine: typeof o.machine === 'string' ? o.machine : undefined,
      timestamp: typeof o.timestamp === 'string' ? o.timestamp : undefined,
      retryCount: Number.isFinite(retry) ? retry : undefined,
    };
  } catch {
    return { raw };
  }
}
