import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig } from '@kubernetes/client-node';
import { toStatusError, toTransportError } from '../cluster/kube-error.js';
import { RemediateError } from './remediate-error.js';

/** A failed write or read; `status` is the HTTP status when the API server answered. */
export class KubeCallError extends RemediateError {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super('E_REMEDIATE_KUBE', message, options);
  }
}

const METHODS = { GET: HttpMethod.GET, POST: HttpMethod.POST, PATCH: HttpMethod.PATCH, DELETE: HttpMethod.DELETE } as const;

/** One Kubernetes API call of a plan, e.g. `{ method: 'DELETE', path: '/api/v1/nodes/n1' }`. */
export interface KubeCall {
  method: keyof typeof METHODS;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** PATCH content type (merge-patch, json-patch). */
  contentType?: string;
}

/**
 * Send one call through @kubernetes/client-node's HTTP stack (its auth, TLS and dispatcher), raw JSON
 * in and out: a plan lists the exact verbs and paths it sends, so the wire call must be exactly that,
 * and `dryRun=All` is one query parameter on the very same call (DESIGN.md "Remediation actions").
 */
export async function sendKube(kc: KubeConfig, call: KubeCall, timeoutMs = 15000): Promise<any> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeCallError(`kubeconfig context "${kc.getCurrentContext()}" names no cluster — fix workload.context in the config`);
  const server = cluster.server.replace(/\/+$/, '');
  const ctx = new RequestContext(server + call.path, METHODS[call.method]);
  for (const [k, v] of Object.entries(call.query ?? {})) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', 'application/json');
  if (call.body !== undefined) {
    ctx.setHeaderParam('Content-Type', call.contentType ?? 'application/json');
    ctx.setBody(JSON.stringify(call.body));
  }
  await kc.applySecurityAuthentication(ctx);
  ctx.setSignal(AbortSignal.timeout(timeoutMs));
  let status: number;
  let text: string;
  try {
    const resp = await new IsomorphicFetchHttpLibrary().send(ctx).toPromise();
    status = resp.httpStatusCode;
    text = await resp.body.text();
  } catch (err) {
    const e = toTransportError(err, server, timeoutMs);
    throw new KubeCallError(e.message, undefined, { cause: err });
  }
  const what = `${call.method} ${call.path}${call.query?.dryRun ? ' (dry run)' : ''}`;
  if (status < 200 || status >= 300) {
    const e = toStatusError(status, text, what);
    throw new KubeCallError(e.message, status);
  }
  return text ? JSON.parse(text) : undefined;
}

/** The call as a plan line: "DELETE /api/v1/nodes/n1?gracePeriodSeconds=0". */
export function describeKubeCall(call: KubeCall): string {
  const q = new URLSearchParams(call.query ?? {}).toString();
  return `${call.method} ${call.path}${q ? `?${q}` : ''}`;
}

/** Is this a 404 from the API server (the object is gone)? */
export function isNotFound(err: unknown): boolean {
  return err instanceof KubeCallError && err.status === 404;
}
