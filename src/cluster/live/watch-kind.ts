import { Watch } from '@kubernetes/client-node';
import { placeInSnapshot, projectObject, type ProjectedObject } from '../add-to-snapshot.js';
import { describeKindError, listKind, type KubeTarget } from './collect-kind.js';
import type { KindSpec } from '../kinds.js';
import type { KubeObject, Snapshot } from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../log/logger.js';

/**
 * - `listing`: the first list (or a relist after 410 Gone) is under way.
 * - `watching`: listed and the watch is open: the objects are current.
 * - `reconnecting`: the watch dropped; objects are as of `since`, a new watch follows after a backoff.
 * - `failed`: the list failed (`error`); retried after a backoff.
 * - `absent`: an optional CRD that is not installed (looked for again after the longest backoff).
 */
export type KindWatchState = 'listing' | 'watching' | 'reconnecting' | 'failed' | 'absent' | 'stopped';

export interface KindWatchOptions {
  pageSize: number;
  /** Deadline of each list request. */
  timeoutMs?: number;
  namespace?: string;
  /**
   * `timeoutSeconds` of each watch request: the API server ends it then and it is renewed from the last
   * resourceVersion.
   */
  watchSeconds: number;
  /** Backoff between failed attempts (doubles up to maxBackoffMs, with jitter). */
  minBackoffMs: number;
  maxBackoffMs: number;
  log?: Logger;
  /** Wait for a list slot (the cache's limit on lists in flight); call the returned function when done. */
  acquireList?: () => Promise<() => void>;
  /**
   * Called after each ADDED, MODIFIED or DELETED the watch applied, and after a relist replaced the
   * objects (changes missed during a 410 Gone): fleet mode re-analyses the cluster.
   */
  onChange?: (spec: KindSpec) => void;
}

/** Requests a kind watch made, for tests, the bench and the log. */
export interface KindWatchStats {
  lists: number;
  watches: number;
  events: number;
  relists: number;
}

/** One kind of one cluster kept current by list-then-watch, as compact projections. */
export interface KindWatch {
  readonly spec: KindSpec;
  readonly role: KubeTarget['role'];
  readonly state: KindWatchState;
  /** Why the last list or watch failed. */
  readonly error?: string;
  /** ISO time the current state began. */
  readonly since: string;
  readonly stats: KindWatchStats;
  /** Resolves once the first list and watch have been tried, whatever the outcome. */
  readonly settled: Promise<void>;
  /** The objects are current: listed and the watch open. */
  isCurrent(): boolean;
  /** Append the kept objects to a Snapshot under construction. */
  fill(snapshot: Snapshot): void;
  /** How many objects are kept. */
  size(): number;
  stop(): void;
}

/**
 * Keep one kind current the way client-go's reflector does: list once (`resourceVersion=0`, paged,
 * stream-parsed, each object projected as a list scan would), then watch from the list's
 * resourceVersion with bookmarks, applying ADDED/MODIFIED/DELETED to the kept projections. A watch
 * ended by the server is renewed from the last resourceVersion at once; a dropped watch after a
 * backoff; `410 Gone` (the version fell out of the API server's window) relists. Backoffs double up
 * to `maxBackoffMs` with jitter, so a struggling API server sees a few requests a minute at most.
 */
export function startKindWatch(target: KubeTarget, spec: KindSpec, opts: KindWatchOptions): KindWatch {
  let items = new Map<string, ProjectedObject>();
  let state: KindWatchState = 'listing';
  let error: string | undefined;
  let since = new Date().toISOString();
  let stopped = false;
  let abort: AbortController | undefined;
  let sleepTimer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const stats: KindWatchStats = { lists: 0, watches: 0, events: 0, relists: 0 };
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const where = `${spec.plural}${spec.group ? `.${spec.group}` : ''}${target.role === 'management' ? ' (management)' : ''}`;

  const setState = (next: KindWatchState, why?: string) => {
    if (next !== state) since = new Date().toISOString();
    state = next;
    error = why;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      sleepTimer = setTimeout(resolve, ms);
      sleepTimer.unref();
    });
  const backoff = (failures: number) => {
    const base = Math.min(opts.maxBackoffMs, opts.minBackoffMs * 2 ** Math.max(0, failures - 1));
    return base / 2 + Math.random() * (base / 2);
  };

  /** One watch request; resolves when it ends: `gone` (410: relist), `closed` (server ended it), or an error. */
  const watchOnce = (path: string, from: { rv: string }) =>
    new Promise<{ outcome: 'gone' | 'closed' | 'error'; error?: string }>((resolve) => {
      const w = new Watch(target.kc);
      // client-node aborts a watch silent for 30 s; the API server may stay silent longer than
      // that between bookmarks, so allow the whole watch window plus a margin before calling it dead.
      (w as unknown as { requestTimeoutMs: number }).requestTimeoutMs = (opts.watchSeconds + 30) * 1000;
      let gone = false;
      stats.watches += 1;
      const query = { resourceVersion: from.rv, allowWatchBookmarks: true, timeoutSeconds: opts.watchSeconds };
      const startedAt = Date.now();
      const onEvent = (type: string, obj: KubeObject & { code?: number; message?: string }) => {
        if (stopped || gone) return;
        stats.events += 1;
        const rv = obj?.metadata?.resourceVersion;
        switch (type) {
          case 'ADDED':
          case 'MODIFIED': {
            obj.kind ??= spec.kind;
            const projected = projectObject(spec, obj, target.role);
            if (projected) items.set(keyOf(obj), projected);
            break;
          }
          case 'DELETED':
            if (obj?.metadata?.name) items.delete(keyOf(obj));
            break;
          case 'BOOKMARK':
            break;
          case 'ERROR':
            // A Status in the stream: 410 Gone (resourceVersion too old) means relist; anything else ends this watch.
            if (obj?.code === 410) gone = true;
            abort?.abort();
            return;
          default:
            return;
        }
        if (typeof rv === 'string' && rv) from.rv = rv;
        if (type !== 'BOOKMARK') opts.onChange?.(spec);
      };
      const onDone = (err: unknown) => {
        const status = (err as { statusCode?: number } | null)?.statusCode;
        // 410: the version is too old. 404: the collection went away (a CRD version no longer
        // served after an upgrade). Both relist, which resolves the version from fresh discovery.
        if (gone || status === 410 || status === 404) return resolve({ outcome: 'gone' });
        if (stopped) return resolve({ outcome: 'closed' });
        // A clean end is the server closing the watch window; one that ends at once, again and
        // again, must not become a tight loop of requests: treat it as a failure (backoff).
        if (!err)
          return resolve(
            Date.now() - startedAt >= 1000
              ? { outcome: 'closed' }
              : { outcome: 'error', error: 'the watch was closed as soon as it opened' },
          );
        return resolve({ outcome: 'error', error: describeError(err) });
      };
      w.watch(path, query, onEvent, onDone).then(
        (controller) => {
          abort = controller;
          if (stopped) controller.abort();
          else if (!controller.signal.aborted) setState('watching');
          settle(); // the first scan waits for this: listed and watching (or the watch refused)
        },
        (err: unknown) => resolve({ outcome: 'error', error: describeError(err) }),
      );
    });

  const run = async () => {
    let failures = 0;
    while (!stopped) {
      // List.
      setState('listing', error);
      const fresh = new Map<string, ProjectedObject>();
      let listed;
      const release = opts.acquireList ? await opts.acquireList() : () => undefined;
      if (stopped) {
        release();
        return;
      }
      try {
        stats.lists += 1;
        listed = await listKind(
          target,
          spec,
          { pageSize: opts.pageSize, timeoutMs: opts.timeoutMs, namespace: opts.namespace },
          (item) => {
            const projected = projectObject(spec, item, target.role);
            if (projected) fresh.set(keyOf(item), projected);
          },
        );
      } catch (err) {
        failures += 1;
        setState('failed', describeKindError(err, spec, opts.namespace));
        settle();
        opts.log?.warn({ watch: where, error }, 'watch: list failed; retrying');
        release();
        await sleep(backoff(failures));
        continue;
      }
      release();
      if (listed === 'absent') {
        items = fresh;
        setState('absent');
        settle();
        await sleep(opts.maxBackoffMs);
        continue;
      }
      items = fresh;
      if (stats.lists > 1) opts.onChange?.(spec);
      // Watch from the list's version until 410 Gone or stop.
      const from = { rv: listed.resourceVersion ?? '0' };
      failures = 0;
      let watchFailures = 0;
      for (;;) {
        if (stopped) return;
        const r = await watchOnce(listed.path, from);
        settle();
        if (stopped) return;
        if (r.outcome === 'gone') {
          stats.relists += 1;
          opts.log?.info(
            { watch: where, resourceVersion: from.rv },
            'watch: resourceVersion too old (410 Gone) or the collection moved (404); relisting',
          );
          break;
        }
        if (r.outcome === 'closed') {
          watchFailures = 0;
          continue; // the API server ended the watch window: renew from the last version
        }
        watchFailures += 1;
        setState('reconnecting', r.error);
        opts.log?.info({ watch: where, error: r.error }, 'watch: reconnecting');
        await sleep(backoff(watchFailures));
      }
    }
  };
  void run().catch((err: unknown) => {
    setState('failed', describeError(err));
    settle();
  });

  return {
    spec,
    role: target.role,
    get state() {
      return state;
    },
    get error() {
      return error;
    },
    get since() {
      return since;
    },
    stats,
    settled,
    isCurrent: () => state === 'watching',
    fill(snapshot) {
      for (const v of items.values()) placeInSnapshot(snapshot, spec, v);
    },
    size: () => items.size,
    stop() {
      stopped = true;
      setState('stopped');
      abort?.abort();
      if (sleepTimer) clearTimeout(sleepTimer);
      wake?.();
      settle();
    },
  };
}

/**
 * Identity of an object within its kind: namespace/name (uids change when an object is recreated, names are what a list
 * keys by).
 */
function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}
