import type { KubeConfig, ResponseContext } from '@kubernetes/client-node';
import { createListSplitter, type ListEnvelope } from './create-list-splitter.js';
import { KubeError, toStatusError, toTransportError } from './kube-error.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './request-kube.js';
import { sendKube, serverOf } from './send-kube.js';
import type { KubeObject } from '../snapshot.js';

/** What a complete list says about itself. */
export interface ListResult {
  /** The list's resourceVersion: a watch from here misses nothing (the watch cache starts there). */
  resourceVersion?: string;
}

export interface ListAllOptions {
  /** Items per page (`limit`). */
  pageSize: number;
  timeoutMs?: number;
  /** Words for error messages, e.g. "list machines.cluster.x-k8s.io". */
  what: string;
  /** More query parameters of every page, e.g. `{ labelSelector: 'k8s-health.io/kubeconfig=true' }`. */
  query?: Record<string, string>;
  /** Called for every item as soon as it has arrived; nothing of a page is kept after its items are handed over. */
  onItem: (item: KubeObject, list: { apiVersion?: string; kind?: string }) => void;
}

/**
 * List every object at a collection path, page by page. The first page asks for
 * `resourceVersion=0` (served from the API server's watch cache, not etcd: docs/design.md "Where state lives"),
 * later pages only send `continue` (the API server rejects a resourceVersion with it).
 * Pages are stream-parsed (createListSplitter): each item is parsed and handed over while the
 * rest of the page is still arriving, so a page is never held whole (peak memory).
 */
export async function listAll(kc: KubeConfig, path: string, opts: ListAllOptions): Promise<ListResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const request = (cont?: string) =>
    sendKube(
      kc,
      {
        method: 'GET',
        path,
        query: {
          ...opts.query,
          ...(cont
            ? { limit: String(opts.pageSize), continue: cont }
            : { limit: String(opts.pageSize), resourceVersion: '0' }),
        },
      },
      timeoutMs,
    );
  let resp = await request();
  let resourceVersion: string | undefined;
  for (;;) {
    // The next page is requested as soon as this page's `continue` is read (it precedes the items),
    // so the API server prepares it while this one is parsed: server and collector work in parallel.
    let prefetch: { cont: string; resp: Promise<ResponseContext> } | undefined;
    let page: ListEnvelope;
    try {
      if (resp.httpStatusCode !== 200) throw toStatusError(resp.httpStatusCode, await resp.body.text(), opts.what);
      page = await readPage(resp.body.stream(), opts.onItem, (early) => {
        const cont = early.metadata?.continue;
        if (typeof cont !== 'string' || !cont) return;
        prefetch = { cont, resp: request(cont) };
        prefetch.resp.catch(() => undefined); // handled when awaited; never an unhandled rejection meanwhile
      });
    } catch (err) {
      discard(prefetch?.resp);
      if (err instanceof ItemError) throw err.error; // the caller's own failure, not the API server's
      if (err instanceof KubeError) throw err;
      if (err instanceof SyntaxError)
        throw new KubeError('E_KUBE_RESPONSE', `cannot ${opts.what}: the answer is not JSON`, resp.httpStatusCode, {
          cause: err,
        });
      throw toTransportError(err, serverOf(kc), timeoutMs);
    }
    // Every page of one paged list is served from the same snapshot: the first page's version holds.
    resourceVersion ??= typeof page.metadata?.resourceVersion === 'string' ? page.metadata.resourceVersion : undefined;
    const cont = page.metadata?.continue || undefined;
    if (prefetch && prefetch.cont !== cont) discard(prefetch.resp);
    if (!cont) return { resourceVersion };
    resp = prefetch?.cont === cont ? await prefetch.resp : await request(cont);
  }
}

/** Drop a prefetched page nobody will read: release its connection, ignore its failure. */
function discard(resp: Promise<ResponseContext> | undefined): void {
  void resp
    ?.then(
      (r) => r.body.stream()?.cancel(),
      () => undefined,
    )
    .catch(() => undefined);
}

/** Decode and split one page as it streams in; the envelope when it is complete. */
async function readPage(
  body: ReadableStream<Uint8Array> | null | undefined,
  onItem: ListAllOptions['onItem'],
  onItemsStart: (early: ListEnvelope) => void,
): Promise<ListEnvelope> {
  const splitter = createListSplitter((item, list) => {
    try {
      onItem(item as KubeObject, list);
    } catch (err) {
      throw new ItemError(err);
    }
  }, onItemsStart);
  if (body) {
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>)
      splitter.write(decoder.decode(chunk, { stream: true }));
    splitter.write(decoder.decode());
  }
  return splitter.end();
}

/** Carries an exception of onItem through the stream reading unchanged. */
class ItemError extends Error {
  constructor(readonly error: unknown) {
    super('the onItem callback failed', { cause: error });
  }
}
