import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig, type ResponseContext } from '@kubernetes/client-node';
import { KubeError, toTransportError } from './kube-error.js';
import { describeError } from '../errors/describe-error.js';

/**
 * GET a path on the kubeconfig's current cluster through @kubernetes/client-node's own HTTP stack
 * (its auth, TLS and dispatcher) and return the response with its body unread, so callers choose
 * to read it whole (requestKube) or stream it (listAll). The deadline covers reading the body too.
 * Throws KubeError only when no answer came (unreachable, timeout).
 */
export async function sendKube(kc: KubeConfig, path: string, query: Record<string, string | undefined>, timeoutMs: number): Promise<ResponseContext> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeError('E_KUBE_CONFIG', `kubeconfig context "${kc.getCurrentContext()}" names no cluster — fix the context in the kubeconfig`);
  const server = cluster.server.replace(/\/+$/, '');
  const ctx = new RequestContext(server + path, HttpMethod.GET);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', 'application/json');
  try {
    await kc.applySecurityAuthentication(ctx);
  } catch (err) {
    throw new KubeError('E_KUBE_CONFIG', `cannot authenticate to ${server}: ${describeError(err)} — check the kubeconfig user`, undefined, { cause: err });
  }
  ctx.setSignal(AbortSignal.timeout(timeoutMs));
  try {
    return await new IsomorphicFetchHttpLibrary().send(ctx).toPromise();
  } catch (err) {
    throw toTransportError(err, server, timeoutMs);
  }
}

/** The server URL of the kubeconfig's current cluster, for error messages. */
export function serverOf(kc: KubeConfig): string {
  return (kc.getCurrentCluster()?.server ?? '').replace(/\/+$/, '');
}
