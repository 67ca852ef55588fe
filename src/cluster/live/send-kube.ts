import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  RequestContext,
  type KubeConfig,
  type ResponseContext,
} from '@kubernetes/client-node';
import { describeError } from '../../errors/describe-error.js';
import { KubeError, toTransportError } from './kube-error.js';

const METHODS = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PATCH: HttpMethod.PATCH,
  DELETE: HttpMethod.DELETE,
} as const;

/** One Kubernetes API call, e.g. `{ method: 'DELETE', path: '/api/v1/nodes/n1' }` (a plan's calls are these). */
export interface KubeCall {
  method: keyof typeof METHODS;
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** JSON body (POST, PATCH). */
  body?: unknown;
  /** PATCH content type (merge-patch, json-patch); default application/json. */
  contentType?: string;
}

/**
 * The one way the bot sends a request to a Kubernetes API server: through @kubernetes/client-node's own
 * HTTP stack (its auth, TLS and dispatcher), raw JSON in and out — the collector keeps objects exactly
 * as a dump holds them (the typed clients turn timestamps into Dates and rename fields), and a plan
 * lists the exact verbs and paths it sends, so the wire call must be exactly that (`dryRun=All` is
 * one query parameter on the very same call). Returns the response with its body unread, so callers
 * read it whole (requestKube, approvals/execute/send-kube.ts) or stream it (listAll); the deadline covers
 * reading the body too. Throws KubeError only when no answer came (no cluster in the context,
 * authentication failed, unreachable, timeout): any HTTP status is the caller's to judge.
 */
export async function sendKube(kc: KubeConfig, call: KubeCall, timeoutMs: number): Promise<ResponseContext> {
  const cluster = kc.getCurrentCluster();
  if (!cluster)
    throw new KubeError(
      'E_KUBE_CONFIG',
      `kubeconfig context "${kc.getCurrentContext()}" names no cluster — fix the context in the kubeconfig (workload.context / management.context in the config)`,
    );
  const server = cluster.server.replace(/\/+$/, '');
  const ctx = new RequestContext(server + call.path, METHODS[call.method]);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', 'application/json');
  if (call.body !== undefined) {
    ctx.setHeaderParam('Content-Type', call.contentType ?? 'application/json');
    ctx.setBody(JSON.stringify(call.body));
  }
  try {
    await kc.applySecurityAuthentication(ctx);
  } catch (err) {
    throw new KubeError(
      'E_KUBE_CONFIG',
      `cannot authenticate to ${server}: ${describeError(err)} — check the kubeconfig user`,
      undefined,
      { cause: err },
    );
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
