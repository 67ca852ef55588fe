import type { Redis } from 'ioredis';
import type { DiscoveredCluster } from '../cluster/fleet/discovered-cluster.js';

/**
 * What one sync changed in the directory: names this caller added, removed (it alone: HDEL said so) or
 * changed; `renamed` are removed names whose Cluster object goes on under another name (a collision).
 */
export interface DirectoryChange {
  added: string[];
  removed: string[];
  changed: string[];
  renamed?: { from: string; to: string }[];
}

/**
 * The discovered clusters, shared by every process (docs/fleet.md): `serve` answers Slack commands for
 * them, `k8s-health clusters` lists them, and every scan worker keeps it current from its own
 * discovery. Never a credential: workers read kubeconfig Secrets themselves.
 */
export interface ClusterDirectory {
  /** Every discovered cluster, by name. */
  list(): Promise<DiscoveredCluster[]>;
  /**
   * Make the entries of `fleets` exactly `clusters` (entries of other fleets are left alone: a fleet
   * whose management cluster is not read yet keeps its clusters). Idempotent: every worker calls it
   * with the same view; a removal is reported only to the caller whose HDEL removed it, so one process
   * retires a deleted cluster. Publishes the change on the change channel when there is one.
   */
  sync(fleets: readonly string[], clusters: readonly DiscoveredCluster[]): Promise<DirectoryChange>;
  /** Follow changes (a dedicated subscriber connection); resolves once subscribed. Returns the unsubscribe. */
  subscribe(onChange: (change: DirectoryChange) => void): Promise<() => Promise<void>>;
}

/** Keys: `<keyPrefix>fleet:clusters` (hash: name → JSON), channel `<keyPrefix>fleet:changes`. */
export function createClusterDirectory(redis: Redis, opts: { keyPrefix: string }): ClusterDirectory {
  const key = `${opts.keyPrefix}fleet:clusters`;
  const channel = `${opts.keyPrefix}fleet:changes`;
  const parse = (raw: string): DiscoveredCluster | undefined => {
    try {
      const d = JSON.parse(raw) as DiscoveredCluster;
      return typeof d?.name === 'string' && typeof d.fleet === 'string' ? d : undefined;
    } catch {
      return undefined; // a corrupt entry is dropped from the view; the next sync rewrites it
    }
  };
  return {
    async list() {
      const all = await redis.hgetall(key);
      return Object.values(all)
        .map(parse)
        .filter((d): d is DiscoveredCluster => d !== undefined)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async sync(fleets, clusters) {
      const wanted = new Set(fleets);
      const current = await redis.hgetall(key);
      const next = new Map(clusters.filter((c) => wanted.has(c.fleet)).map((c) => [c.name, JSON.stringify(c)]));
      const change: DirectoryChange = { added: [], removed: [], changed: [] };
      const identity = (d: DiscoveredCluster) => `${d.fleet}/${d.namespace}/${d.clusterName}`;
      const nameOf = new Map(clusters.filter((c) => wanted.has(c.fleet)).map((c) => [identity(c), c.name]));
      for (const [name, json] of next) {
        if (current[name] === json) continue;
        // HSET returns 1 for a new field: only then is it "added" (another worker may have written it first).
        const created = await redis.hset(key, name, json);
        (created ? change.added : change.changed).push(name);
      }
      for (const [name, raw] of Object.entries(current)) {
        if (next.has(name)) continue;
        const d = parse(raw);
        if (d && !wanted.has(d.fleet)) continue;
        if ((await redis.hdel(key, name)) !== 1) continue;
        const to = d ? nameOf.get(identity(d)) : undefined;
        if (to) (change.renamed ??= []).push({ from: name, to });
        else change.removed.push(name);
      }
      if (change.added.length || change.removed.length || change.changed.length || change.renamed?.length)
        await redis.publish(channel, JSON.stringify(change));
      return change;
    },
    async subscribe(onChange) {
      const sub = redis.duplicate();
      sub.on('error', () => undefined); // reconnects by itself; a missed message is caught by the next list()
      sub.on('message', (ch: string, message: string) => {
        if (ch !== channel) return;
        try {
          onChange(JSON.parse(message) as DirectoryChange);
        } catch {
          onChange({ added: [], removed: [], changed: [] });
        }
      });
      await sub.subscribe(channel);
      return async () => {
        await sub.quit().catch(() => sub.disconnect());
      };
    },
  };
}
