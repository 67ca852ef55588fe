import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../log/logger.js';
import type { ClusterLeaseStore } from '../store/cluster-lease-store.js';

/**
 * The clusters a worker may own: today the live clusters of the config; the discovered fleet (issue
 * 17, discovery) plugs in here. `onChange` is called when the set changes; it returns an unsubscribe.
 */
export interface ClusterSource {
  names(): string[];
  onChange(listener: () => void): () => void;
}

/** Why this worker stopped owning a cluster. */
export type LeaseLoss = 'lost' | 'rebalanced' | 'removed' | 'unreachable' | 'stopped';

export interface LeaseKeeperOptions {
  store: ClusterLeaseStore;
  clusters: ClusterSource;
  /** scan.leaseSeconds in ms: a dead owner's clusters are taken over within this long. */
  leaseMs: number;
  /** How often leases are renewed and balanced (default leaseMs / 10, at most 1 s). */
  tickMs?: number;
  /** This worker's id (default host-pid-random). */
  id?: string;
  /** Called once when this worker starts owning a cluster. */
  onAcquire(cluster: string): void;
  /** Called once, at once, when it stops (its watches must stop now). */
  onLose(cluster: string, why: LeaseLoss): void;
  log?: Logger;
}

export interface LeaseKeeper {
  readonly id: string;
  owns(cluster: string): boolean;
  /** The clusters owned now, sorted. */
  owned(): string[];
  /** One round: heartbeat, renew, release extras, claim a fair share (the timer calls it; tests may too). */
  tick(): Promise<void>;
  start(): void;
  /** Stop ticking, release every lease and withdraw the heartbeat, so the others take over at once. */
  stop(): Promise<void>;
}

/** Rendezvous (highest random weight) score: each cluster prefers one worker, the same in every worker's view. */
function score(cluster: string, worker: string): number {
  return createHash('sha1').update(`${cluster}\0${worker}`).digest().readUInt32BE(0);
}

/**
 * Keep this worker's share of the cluster leases (docs/fleet.md "Leases and event-driven scans").
 * Every tick: heartbeat; renew owned leases by compare-and-set (a lease someone else holds now is
 * lost at once); with n live workers and C clusters the fair share is ceil(C / n): above it, release
 * the clusters another worker prefers first (rendezvous hashing, so a worker joining gets back exactly
 * the clusters it prefers); below it, claim free clusters, preferred ones first. Leases and heartbeats
 * live leaseMs minus one tick, so after kill -9 the survivors' next tick — within leaseMs — takes them.
 * When Redis does not answer for that long, every lease is dropped locally (another worker may own them).
 */
export function createLeaseKeeper(opts: LeaseKeeperOptions): LeaseKeeper {
  const id = opts.id ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const tickMs = opts.tickMs ?? Math.min(1000, Math.max(50, opts.leaseMs / 10));
  const ttlMs = Math.max(tickMs, opts.leaseMs - tickMs);
  const { store, log } = opts;
  const mine = new Set<string>();
  let validUntil = 0;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  let again = false;
  let lastError = '';

  const lose = (cluster: string, why: LeaseLoss) => {
    if (!mine.delete(cluster)) return;
    log?.info({ cluster, why, worker: id }, 'lease: no longer owner');
    opts.onLose(cluster, why);
  };

  const round = async () => {
    const started = Date.now();
    const workers = await store.heartbeat(id, ttlMs);
    const wanted = new Set(opts.clusters.names());
    const removed = [...mine].filter((c) => !wanted.has(c));
    if (removed.length) {
      for (const c of removed) lose(c, 'removed');
      await store.release(removed, id);
    }
    const held = [...mine];
    const renewed = held.length ? await store.renew(held, id, ttlMs) : [];
    held.forEach((c, i) => {
      if (!renewed[i]) lose(c, 'lost');
    });
    validUntil = started + ttlMs;
    const names = [...wanted].sort();
    const peers = workers.includes(id) ? workers : [...workers, id];
    const fair = Math.ceil(names.length / peers.length);
    const preferred = (c: string) => {
      let best = '';
      let bestScore = -1;
      for (const w of peers) {
        const s = score(c, w);
        if (s > bestScore || (s === bestScore && w < best)) ((best = w), (bestScore = s));
      }
      return best === id;
    };
    if (mine.size > fair) {
      // Give back what others prefer first, then the weakest of ours.
      const order = [...mine].sort(
        (a, b) => Number(preferred(a)) - Number(preferred(b)) || score(a, id) - score(b, id),
      );
      const extras = order.slice(0, mine.size - fair);
      for (const c of extras) lose(c, 'rebalanced');
      await store.release(extras, id);
    } else if (mine.size < fair) {
      const owners = await store.owners(names);
      const free = names.filter((_, i) => owners[i] === undefined);
      free.sort((a, b) => Number(preferred(b)) - Number(preferred(a)) || score(b, id) - score(a, id));
      const want = free.slice(0, fair - mine.size);
      const got = want.length ? await store.claim(want, id, ttlMs) : [];
      const acquired = want.filter((_, i) => got[i]);
      for (const c of acquired) {
        mine.add(c);
        opts.onAcquire(c);
      }
      if (acquired.length)
        log?.info(
          { worker: id, acquired: acquired.length, owned: mine.size, fair, workers: peers.length },
          'lease: clusters acquired',
        );
    }
    lastError = '';
  };

  const tick = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await round();
    } catch (err) {
      const error = describeError(err);
      if (error !== lastError)
        log?.warn({ worker: id, error }, 'lease: Redis did not answer; keeping leases until they would expire');
      lastError = error;
      // Unrenewed past their TTL, our leases may be someone else's now: stop watching them.
      if (Date.now() > validUntil) for (const c of [...mine]) lose(c, 'unreachable');
    } finally {
      running = false;
    }
    if (again && !stopped) {
      again = false;
      await tick();
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), tickMs);
  };
  let unsubscribe: (() => void) | undefined;

  return {
    id,
    owns: (cluster) => mine.has(cluster),
    owned: () => [...mine].sort(),
    tick,
    start() {
      unsubscribe = opts.clusters.onChange(() => void tick());
      void tick().finally(schedule);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe?.();
      while (running) await new Promise((r) => setTimeout(r, 10));
      const held = [...mine];
      for (const c of held) lose(c, 'stopped');
      try {
        await store.release(held, id);
        await store.heartbeat(id, ttlMs, false);
      } catch (err) {
        log?.warn({ worker: id, err }, 'lease: could not release on stop; the leases expire on their own');
      }
    },
  };
}
