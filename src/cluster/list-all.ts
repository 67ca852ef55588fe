import type { KubeConfig } from '@kubernetes/client-node';
import { KubeError, toStatusError } from './kube-error.js';
import { requestKube } from './request-kube.js';
import type { KubeObject } from './snapshot.js';

export interface ListAllOptions {
  /** Items per page (`limit`). */
  pageSize: number;
  timeoutMs?: number;
  /** Words for error messages, e.g. "list machines.cluster.x-k8s.io". */
  what: string;
  /** Called for every item; the page is dropped once its items are handed over. */
  onItem: (item: KubeObject, list: { apiVersion?: string; kind?: string }) => void;
}

/**
 * List every object at a collection path, page by page. The first page asks for
 * `resourceVersion=0` (served from the API server's watch cache, not etcd: DESIGN.md "Scale"),
 * later pages only send `continue` (the API server rejects a resourceVersion with it).
 */
export async function listAll(kc: KubeConfig, path: string, opts: ListAllOptions): Promise<void> {
  let cont: string | undefined;
  do {
    const query = cont ? { limit: String(opts.pageSize), continue: cont } : { limit: String(opts.pageSize), resourceVersion: '0' };
    const resp = await requestKube(kc, path, query, opts.timeoutMs);
    if (resp.status !== 200) throw toStatusError(resp.status, resp.body, opts.what);
    let page: { apiVersion?: string; kind?: string; metadata?: { continue?: string }; items?: KubeObject[] };
    try {
      page = JSON.parse(resp.body);
    } catch (err) {
      throw new KubeError('E_KUBE_RESPONSE', `cannot ${opts.what}: the answer is not JSON`, resp.status, { cause: err });
    }
    for (const item of page.items ?? []) opts.onItem(item, { apiVersion: page.apiVersion, kind: page.kind });
    cont = page.metadata?.continue || undefined;
  } while (cont);
}
