import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** What went wrong talking to a Kubernetes API server; decides partial-entry wording and retries. */
export type KubeErrorCode =
  | 'E_KUBE_CONFIG'
  | 'E_KUBE_UNREACHABLE'
  | 'E_KUBE_TIMEOUT'
  | 'E_KUBE_UNAUTHORIZED'
  | 'E_KUBE_FORBIDDEN'
  | 'E_KUBE_NOT_FOUND'
  | 'E_KUBE_SERVER'
  | 'E_KUBE_RESPONSE'
  | 'E_KUBE_NOT_SERVED';

/**
 * A failed Kubernetes API call, translated at the boundary (docs/development.md, "Errors"): one line a user can
 * act on, the HTTP status when there was one, and the original error as `cause`.
 */
export class KubeError extends K8sHealthError {
  override readonly name = 'KubeError';
  declare readonly code: KubeErrorCode;
  constructor(
    code: KubeErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Is this a KubeError meaning the API server itself could not be reached (refused, reset, timed out)? */
export function isUnreachable(err: unknown): boolean {
  return err instanceof KubeError && (err.code === 'E_KUBE_UNREACHABLE' || err.code === 'E_KUBE_TIMEOUT');
}

/** Translate a transport error (undici fetch failure, abort on timeout) into a KubeError. */
export function toTransportError(err: unknown, server: string, timeoutMs: number): KubeError {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new KubeError('E_KUBE_TIMEOUT', `API server ${server} did not answer within ${timeoutMs} ms`, undefined, {
      cause: err,
    });
  }
  const detail = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new KubeError('E_KUBE_UNREACHABLE', `cannot reach API server ${server}: ${detail}`, undefined, { cause: err });
}

/** Translate a non-2xx answer (body usually a Kubernetes Status) into a KubeError. */
export function toStatusError(status: number, body: string, what: string): KubeError {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    message = body.split('\n')[0]?.slice(0, 200) ?? '';
  }
  const suffix = message ? ` (${message})` : '';
  if (status === 401)
    return new KubeError(
      'E_KUBE_UNAUTHORIZED',
      `cannot ${what}: unauthorized — the bot's credentials were rejected; check the kubeconfig token or certificate${suffix}`,
      status,
    );
  if (status === 403) return new KubeError('E_KUBE_FORBIDDEN', `cannot ${what}: forbidden${suffix}`, status);
  if (status === 404) return new KubeError('E_KUBE_NOT_FOUND', `cannot ${what}: not found${suffix}`, status);
  if (status >= 500)
    return new KubeError('E_KUBE_SERVER', `cannot ${what}: API server error ${status}${suffix}`, status);
  return new KubeError('E_KUBE_RESPONSE', `cannot ${what}: HTTP ${status}${suffix}`, status);
}
