import type { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from './kube-error.js';
import { parseReadyz } from './parse-readyz.js';
import { requestKube } from './request-kube.js';
import type { ApiServerState } from './snapshot.js';

/**
 * `GET /readyz?verbose` on the cluster. No answer at all is `reachable: false` with the reason
 * (seed S1: all kube-apiservers gone); any answer, even 500 "etcd failed", is parsed.
 */
export async function collectReadyz(kc: KubeConfig, timeoutMs?: number): Promise<ApiServerState> {
  try {
    const resp = await requestKube(kc, '/readyz', { verbose: '' }, timeoutMs);
    return parseReadyz(resp.body, resp.status);
  } catch (err) {
    return { reachable: false, checks: [], error: err instanceof KubeError ? err.message : String(err) };
  }
}
