import type { KubeConfig } from '@kubernetes/client-node';
import { toTransportError } from './kube-error.js';
import { sendKube, serverOf } from './send-kube.js';

/** Default per-request deadline: an incident must not wait on one hung call. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15000;

/** A raw answer: status and body text (JSON is parsed by the caller, one page at a time). */
export interface KubeResponse {
  status: number;
  body: string;
}

/**
 * GET a path on the kubeconfig's current cluster (sendKube) and read the answer whole. Raw JSON on
 * purpose (see sendKube). Throws KubeError only when no answer came (unreachable, timeout); any HTTP
 * status is returned.
 */
export async function requestKube(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): Promise<KubeResponse> {
  const resp = await sendKube(kc, { method: 'GET', path, query }, timeoutMs);
  try {
    return { status: resp.httpStatusCode, body: await resp.body.text() };
  } catch (err) {
    throw toTransportError(err, serverOf(kc), timeoutMs);
  }
}
