import type { KubeConfig } from '@kubernetes/client-node';
import { toStatusError, toTransportError } from '../../cluster/live/kube-error.js';
import { sendKube as sendKubeRequest, serverOf, type KubeCall as LiveKubeCall } from '../../cluster/live/send-kube.js';
import { describeError } from '../../errors/describe-error.js';
import { RemediateError } from '../remediate-error.js';

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

/** One Kubernetes API call of a plan (query values always set). */
export interface KubeCall extends LiveKubeCall {
  query?: Record<string, string>;
}

/**
 * The remediate side of cluster/live/send-kube.ts (the one implementation): send the call, read the
 * JSON answer, and translate at the remediate boundary — no answer or a non-2xx status becomes a
 * KubeCallError (E_REMEDIATE_KUBE) with the HTTP status, so run-remediation can tell a pinned write
 * the API server refused (409, 422) from any other failure.
 */
// The answer's shape is the called endpoint's (an object, a list, a Status): each caller reads the fields
// of the resource it asked for, as the client library's own untyped calls do.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function sendKube(kc: KubeConfig, call: KubeCall, timeoutMs = 15000): Promise<any> {
  let status: number;
  let text: string;
  try {
    const resp = await sendKubeRequest(kc, call, timeoutMs);
    status = resp.httpStatusCode;
    try {
      text = await resp.body.text();
    } catch (err) {
      throw toTransportError(err, serverOf(kc), timeoutMs);
    }
  } catch (err) {
    throw new KubeCallError(describeError(err), undefined, { cause: err });
  }
  if (status < 200 || status >= 300) {
    const e = toStatusError(status, text, `${call.method} ${call.path}${call.query?.dryRun ? ' (dry run)' : ''}`);
    throw new KubeCallError(e.message, status, { cause: e });
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
