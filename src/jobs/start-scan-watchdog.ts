import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import type { Config } from '../config/config-schema.js';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../log/logger.js';
import { readScanTimes } from '../store/scan-times.js';
import { neutralizeMrkdwn } from '../text/neutralize-mrkdwn.js';

/** A cluster whose latest scan is older than three scan intervals. */
export interface UnscannedCluster {
  cluster: string;
  /** Seconds since its latest stored scan (or since this process started watching, if never). */
  scanAgeSeconds: number;
}

export interface ScanWatchdog {
  /** The clusters unscanned at the last check, oldest scan first. */
  unscanned(): UnscannedCluster[];
  /** Check now (the timer does it every `everyMs`). */
  check(): Promise<void>;
  stop(): void;
}

/** A cluster counts as unscanned after this many scan intervals without a stored scan. */
export const UNSCANNED_AFTER_INTERVALS = 3;

/**
 * Scans that stop silently — every worker down, a lease nobody holds, scans failing before they
 * store anything — must not look like a quiet fleet. Every `everyMs` (default: the scan interval, at
 * most a minute) this reads when each configured cluster was last scanned (one HGETALL), exports the
 * age as `k8s_health_cluster_scan_age_seconds{cluster}`, keeps the list for /readyz's `unscanned`
 * (which stays 200: taking `serve` out of its Service, or holding back a worker's rollout, would not
 * scan anything), and posts ONE alert per episode in the cluster's configured alert channel (a SET NX
 * key per cluster and latest scan, shared by every serve and worker process:
 * compose/start-unscanned-watchdog.ts runs it in workers). Channels come from the config only, never
 * from Redis.
 */
export function startScanWatchdog(opts: {
  config: Config;
  redis: Redis;
  keyPrefix: string;
  registry?: Registry;
  post?: (channel: string, text: string) => Promise<void>;
  now?: () => number;
  everyMs?: number;
  log: Logger;
}): ScanWatchdog {
  const now = opts.now ?? Date.now;
  const started = now();
  const intervalMs = opts.config.scan.intervalSeconds * 1000;
  const thresholdMs = UNSCANNED_AFTER_INTERVALS * intervalMs;
  const gauge = opts.registry
    ? new Gauge({
        name: 'k8s_health_cluster_scan_age_seconds',
        help: `Seconds since each cluster's latest stored scan (unscanned above ${UNSCANNED_AFTER_INTERVALS} scan intervals)`,
        labelNames: ['cluster'],
        registers: [opts.registry],
      })
    : undefined;
  let current: UnscannedCluster[] = [];
  // One key per episode (the cluster and its latest scan time), expiring by itself: every serve and
  // worker process checks, one of them posts, and the next episode (a later last scan) gets its own alert.
  const alertKey = (cluster: string, last: number | undefined) =>
    `${opts.keyPrefix}unscanned-alert:${cluster}:${last ?? 'never'}`;
  const lastOf = new Map<string, number | undefined>();

  async function check(): Promise<void> {
    const times = await readScanTimes(opts.redis, { keyPrefix: opts.keyPrefix });
    const t = now();
    const next: UnscannedCluster[] = [];
    gauge?.reset();
    for (const c of opts.config.clusters) {
      const last = times.get(c.name);
      // Never scanned: counted from when this process started watching (a new cluster gets its intervals too).
      const ageMs = Math.max(0, t - (last !== undefined ? Math.max(last, 0) : started));
      gauge?.set({ cluster: c.name }, Math.round(ageMs / 1000));
      lastOf.set(c.name, last);
      if (ageMs > thresholdMs) next.push({ cluster: c.name, scanAgeSeconds: Math.round(ageMs / 1000) });
    }
    next.sort((a, b) => b.scanAgeSeconds - a.scanAgeSeconds || a.cluster.localeCompare(b.cluster));
    current = next;
    for (const u of next) {
      const c = opts.config.clusters.find((x) => x.name === u.cluster)!;
      const channel = c.slack.alertChannel ?? c.slack.channels[0];
      if (!channel || !opts.post) continue;
      const key = alertKey(u.cluster, lastOf.get(u.cluster));
      if (!(await opts.redis.set(key, String(t), 'EX', 7 * 86_400, 'NX'))) continue; // already alerted this episode
      const minutes = Math.max(1, Math.round(u.scanAgeSeconds / 60));
      const text = `:warning: *${neutralizeMrkdwn(u.cluster, { max: 100 })}* has not been scanned for ${minutes} min (more than ${UNSCANNED_AFTER_INTERVALS} scan intervals of ${opts.config.scan.intervalSeconds} s): no worker is scanning it or its scans fail before storing a report. Check the \`k8s-health worker\` pods; \`/readyz\` lists it under \`unscanned\`.`;
      await opts.post(channel, text).catch((err: unknown) => {
        opts.log.warn({ cluster: u.cluster, error: describeError(err) }, 'unscanned-cluster alert not posted');
        return opts.redis.del(key); // the next check tries again
      });
      opts.log.warn(
        { cluster: u.cluster, scanAgeSeconds: u.scanAgeSeconds },
        'cluster unscanned for more than three scan intervals',
      );
    }
  }
  const everyMs = opts.everyMs ?? Math.min(intervalMs, 60_000);
  // A check that waits for Slack's send slots may outlast the period: the next tick is skipped, not stacked.
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void check()
      .catch((err: unknown) => opts.log.debug({ error: describeError(err) }, 'scan watchdog: Redis not readable'))
      .finally(() => (checking = false));
  }, everyMs);
  timer.unref();
  return { unscanned: () => current, check, stop: () => clearInterval(timer) };
}
