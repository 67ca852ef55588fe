import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '../live/kube-error.js';
import { listAll } from '../live/list-all.js';
import type { KubeObject } from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../log/logger.js';

export interface ObjectWatchOptions {
  /** Collection paths to try in order (v1beta2 first, v1beta1 next): the first one served is used. */
  paths: string[];
  labelSelector?: string;
  /** Words for logs and errors: "clusters.cluster.x-k8s.io in namespace x". */
  what: string;
  /** Called with every object kept, after the first list and after every change. */
  onChange: (objects: KubeObject[]) => void;
  log?: Logger;
  /** Server-side length of each watch request (default 300 s). */
  watchSeconds?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
}

export interface ObjectWatch {
  /** Resolves after the first list (or its first failure). */
  readonly ready: Promise<void>;
  /** The last error of a list or watch, cleared when one succeeds. */
  readonly error: string | undefined;
  /** Whether a collection was found (false while none of `paths` is served: CAPI not installed). */
  readonly served: boolean;
  stop(): void;
}

/**
 * Keep whole objects of one collection current: list (first served path of `paths`), then watch from
 * the list's resourceVersion; relist on 410 Gone; back off on failures. The fleet's discovery reads
 * `Cluster` objects and kubeconfig Secrets this way: whole objects (labels, annotations, data), which
 * the collector's projections (cluster/live/watch-kind.ts) deliberately drop.
 */
export function startObjectWatch(kc: KubeConfig, opts: ObjectWatchOptions): ObjectWatch {
  const minBackoff = opts.minBackoffMs ?? 1000;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  const watchSeconds = opts.watchSeconds ?? 300;
  let items = new Map<string, KubeObject>();
  let stopped = false;
  let abort: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let error: string | undefined;
  let served = false;
  let settle!: () => void;
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const publish = () => opts.onChange([...items.values()]);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
  const query = opts.labelSelector ? { labelSelector: opts.labelSelector } : undefined;

  const list = async (): Promise<{ path: string; resourceVersion?: string } | undefined> => {
    for (const path of opts.paths) {
      const fresh = new Map<string, KubeObject>();
      try {
        const r = await listAll(kc, path, {
          pageSize: 500,
          timeoutMs: opts.timeoutMs,
          what: `list ${opts.what}`,
          query,
          onItem: (o) => void fresh.set(key(o), o),
        });
        items = fresh;
        served = true;
        return { path, resourceVersion: r.resourceVersion };
      } catch (err) {
        if (err instanceof KubeError && err.code === 'E_KUBE_NOT_FOUND') continue;
        throw err;
      }
    }
    items = new Map();
    served = false;
    return undefined;
  };

  const watchOnce = (path: string, from: { rv: string }) =>
    new Promise<'gone' | 'closed' | 'error'>((resolve) => {
      const w = new Watch(kc);
      (w as unknown as { requestTimeoutMs: number }).requestTimeoutMs = (watchSeconds + 30) * 1000;
      let gone = false;
      const startedAt = Date.now();
      w.watch(
        path,
        { resourceVersion: from.rv, allowWatchBookmarks: true, timeoutSeconds: watchSeconds, ...query },
        (type: string, obj: KubeObject & { code?: number }) => {
          if (stopped || gone) return;
          if (type === 'ERROR') {
            if (obj?.code === 410) gone = true;
            abort?.abort();
            return;
          }
          const rv = obj?.metadata?.resourceVersion;
          if (typeof rv === 'string' && rv) from.rv = rv;
          if (type === 'ADDED' || type === 'MODIFIED') items.set(key(obj), obj);
          else if (type === 'DELETED') items.delete(key(obj));
          else return;
          publish();
        },
        (err: unknown) => {
          const status = (err as { statusCode?: number } | null)?.statusCode;
          if (gone || status === 410 || status === 404) return resolve('gone');
          if (stopped || (!err && Date.now() - startedAt >= 1000)) return resolve('closed');
          error = err ? describeError(err) : 'the watch was closed as soon as it opened';
          resolve('error');
        },
      ).then(
        (controller) => {
          abort = controller;
          if (stopped) controller.abort();
        },
        (err: unknown) => {
          error = describeError(err);
          resolve('error');
        },
      );
    });

  const run = async () => {
    let failures = 0;
    while (!stopped) {
      let listed;
      try {
        listed = await list();
        error = undefined;
      } catch (err) {
        failures += 1;
        error = describeError(err);
        opts.log?.warn({ watch: opts.what, error }, 'fleet discovery: list failed; retrying');
        settle();
        await sleep(Math.min(maxBackoff, minBackoff * 2 ** (failures - 1)));
        continue;
      }
      publish();
      settle();
      if (!listed) {
        await sleep(maxBackoff); // not served (CRD not installed): look again later
        continue;
      }
      failures = 0;
      const from = { rv: listed.resourceVersion ?? '0' };
      let watchFailures = 0;
      for (;;) {
        if (stopped) return;
        const outcome = await watchOnce(listed.path, from);
        if (stopped) return;
        if (outcome === 'gone') break;
        if (outcome === 'closed') {
          watchFailures = 0;
          continue;
        }
        watchFailures += 1;
        opts.log?.info({ watch: opts.what, error }, 'fleet discovery: watch dropped; reconnecting');
        await sleep(Math.min(maxBackoff, minBackoff * 2 ** (watchFailures - 1)));
      }
    }
  };
  void run().catch((err: unknown) => {
    error = describeError(err);
    settle();
  });

  return {
    ready,
    get error() {
      return error;
    },
    get served() {
      return served;
    },
    stop() {
      stopped = true;
      abort?.abort();
      if (timer) clearTimeout(timer);
      wake?.();
      settle();
    },
  };
}
