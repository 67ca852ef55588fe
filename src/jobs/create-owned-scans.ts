import type { Logger } from '../log/logger.js';

/** Why an owned cluster is scanned. */
export type ScanTrigger = 'acquired' | 'interval' | 'event';

export interface OwnedScansOptions {
  /** Scan one cluster (runScanJob with this worker's watch cache); errors are logged, never thrown out. */
  scan(cluster: string, trigger: ScanTrigger): Promise<void>;
  /** scan.intervalSeconds in ms: the safety-net scan of each owned cluster. */
  intervalMs: number;
  /** scan.debounceSeconds in ms: at most one scan per cluster per this long; events in between coalesce. */
  debounceMs: number;
  /** Scans at once in this worker (scanConcurrency). */
  concurrency: number;
  log?: Logger;
}

/** The scans of the clusters this worker owns (fleet mode): started on acquire, stopped on loss. */
export interface OwnedScans {
  /** This worker owns the cluster now: scan it at once, then every interval. */
  acquire(cluster: string): void;
  /** It does not any more: no further scan starts (one in flight finishes). */
  lose(cluster: string): void;
  /** A watch event on the cluster: a scan within debounceMs, coalesced with other events. */
  changed(cluster: string): void;
  /** Stop every timer and wait for the scans in flight. */
  stop(): Promise<void>;
}

interface ClusterState {
  interval: NodeJS.Timeout;
  /** A scan is due (timer set or waiting for a slot). */
  due?: { timer?: NodeJS.Timeout; trigger: ScanTrigger };
  running: boolean;
  /** An event arrived during the running scan: scan again after it. */
  again: boolean;
  lastStart: number;
}

/**
 * Per owned cluster: one scan when acquired, one every intervalMs (time-based detectors, and the
 * safety net if a watch missed something), and one debounced after watch events: the first event
 * after a quiet period is scanned after max(debounceMs / 10, lastStart + debounceMs − now), so an
 * alert follows its cause within about debounceMs plus one scan, and a storm of events costs one scan
 * per debounceMs. A cluster is never scanned twice at once; at most `concurrency` scans run together,
 * and a scan for a change goes before the interval and acquire scans waiting for a slot.
 */
export function createOwnedScans(opts: OwnedScansOptions): OwnedScans {
  const states = new Map<string, ClusterState>();
  const queue: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let active = 0;
  let stopped = false;
  const minDelay = Math.max(50, opts.debounceMs / 10);

  const pump = () => {
    while (!stopped && active < opts.concurrency && queue.length > 0) {
      const cluster = queue.shift()!;
      const st = states.get(cluster);
      if (!st?.due) continue;
      const trigger = st.due.trigger;
      st.due = undefined;
      st.running = true;
      st.lastStart = Date.now();
      active += 1;
      const p = opts
        .scan(cluster, trigger)
        .catch((err: unknown) => opts.log?.warn({ cluster, trigger, err }, 'owned scan failed'))
        .finally(() => {
          active -= 1;
          inFlight.delete(p);
          st.running = false;
          if (st.again && states.get(cluster) === st) {
            st.again = false;
            request(cluster, 'event');
          }
          pump();
        });
      inFlight.add(p);
    }
  };

  const request = (cluster: string, trigger: ScanTrigger) => {
    const st = states.get(cluster);
    if (!st || stopped) return;
    if (st.due) return; // coalesced into the scan already due
    if (st.running) {
      if (trigger === 'event') st.again = true;
      return;
    }
    const delay = trigger === 'event' ? Math.max(minDelay, st.lastStart + opts.debounceMs - Date.now()) : 0;
    const due: ClusterState['due'] = { trigger };
    st.due = due;
    const enqueue = () => {
      due.timer = undefined;
      // A change goes before the periodic safety-net scans waiting for a slot: with hundreds of owned
      // clusters the interval queue can be long, and the alert must not wait behind it.
      if (trigger === 'event') queue.unshift(cluster);
      else queue.push(cluster);
      pump();
    };
    if (delay > 0) due.timer = setTimeout(enqueue, delay);
    else enqueue();
  };

  return {
    acquire(cluster) {
      if (states.has(cluster) || stopped) return;
      const interval = setInterval(() => request(cluster, 'interval'), opts.intervalMs);
      states.set(cluster, { interval, running: false, again: false, lastStart: 0 });
      request(cluster, 'acquired');
    },
    lose(cluster) {
      const st = states.get(cluster);
      if (!st) return;
      clearInterval(st.interval);
      if (st.due?.timer) clearTimeout(st.due.timer);
      states.delete(cluster);
    },
    changed: (cluster) => request(cluster, 'event'),
    async stop() {
      stopped = true;
      for (const st of states.values()) {
        clearInterval(st.interval);
        if (st.due?.timer) clearTimeout(st.due.timer);
      }
      states.clear();
      await Promise.all([...inFlight]);
    },
  };
}
