import type { KubeConfig } from '@kubernetes/client-node';
import { parseReadyz } from '../parse/parse-readyz.js';
import { requestKube } from './request-kube.js';
import type { ApiServerState } from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';

/**
 * `GET /readyz?verbose` on the cluster. No answer at all is `reachable: false` with the reason
 * (seed S1: all kube-apiservers gone); any answer, even 500 "etcd failed", is parsed.
 */
export async function collectReadyz(kc: KubeConfig, timeoutMs?: number): Promise<ApiServerState> {
  try {
    const resp = await requestKube(kc, '/readyz', { verbose: '' }, timeoutMs);
    return parseReadyz(resp.body, resp.status);
  } catch (err) {
    return { reachable: false, checks: [], error: describeError(err) };
  }
}
