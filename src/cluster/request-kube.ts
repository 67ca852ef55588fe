import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig } from '@kubernetes/client-node';
import { KubeError, toTransportError } from './kube-error.js';

/** Default per-request deadline: an incident must not wait on one hung call. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15000;

/** A raw answer: status and body text (JSON is parsed by the caller, one page at a time). */
export interface KubeResponse {
  status: number;
  body: string;
}

/**
 * GET a path on the kubeconfig's current cluster through @kubernetes/client-node's own HTTP stack
 * (its auth, TLS and dispatcher). Raw JSON on purpose: the generated typed clients turn timestamps
 * into Date objects and rename fields, but the Snapshot keeps objects exactly as a dump holds them.
 * Throws KubeError only when no answer came (unreachable, timeout); any HTTP status is returned.
 */
export async function requestKube(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): Promise<KubeResponse> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeError('E_KUBE_CONFIG', `kubeconfig context "${kc.getCurrentContext()}" names no cluster — fix the context in the kubeconfig`);
  const server = cluster.server.replace(/\/+$/, '');
  const ctx = new RequestContext(server + path, HttpMethod.GET);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', 'application/json');
  try {
    await kc.applySecurityAuthentication(ctx);
  } catch (err) {
    throw new KubeError('E_KUBE_CONFIG', `cannot authenticate to ${server}: ${(err as Error).message} — check the kubeconfig user`, undefined, { cause: err });
  }
  ctx.setSignal(AbortSignal.timeout(timeoutMs));
  try {
    const resp = await new IsomorphicFetchHttpLibrary().send(ctx).toPromise();
    return { status: resp.httpStatusCode, body: await resp.body.text() };
  } catch (err) {
    throw toTransportError(err, server, timeoutMs);
  }
}
