import type { ClusterConfig, Config } from './config-schema.js';

/** What changed in a cluster set: names added, removed, or whose settings changed (credentials, channel…). */
export interface ClusterSetChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * The clusters this process knows: the configured ones (`clusters:`) and the discovered ones (fleet
 * mode, docs/fleet.md). One object per process, created by the composition root and passed in.
 *
 * It keeps `config.clusters` current IN PLACE (configured first, then discovered, by name), so every
 * existing `config.clusters.find(...)` sees discovered clusters too; new code should prefer `get`,
 * `names` and `onChange`.
 */
export interface ClusterSet {
  /** Every cluster name known now, configured first (config order), then discovered (sorted). */
  names(): string[];
  /** The cluster of that name (configured or discovered). */
  get(name: string): ClusterConfig | undefined;
  /** Every cluster, in the order of names(). */
  list(): ClusterConfig[];
  /** Called after every change with what changed (never for a no-op update); returns an unsubscribe function. */
  onChange(cb: (change: ClusterSetChange) => void): () => void;
  /**
   * Replace the discovered clusters with these (the whole current set). A discovered name equal to a
   * configured one is ignored: the config file wins. Returns what changed.
   */
  setDiscovered(clusters: readonly ClusterConfig[]): ClusterSetChange;
}

export function createClusterSet(config: Config): ClusterSet {
  const configured = [...config.clusters];
  const configuredNames = new Set(configured.map((c) => c.name));
  let discovered = new Map<string, ClusterConfig>();
  const listeners = new Set<(change: ClusterSetChange) => void>();

  const rebuild = () => {
    const all = [
      ...configured,
      ...[...discovered.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ];
    config.clusters.splice(0, config.clusters.length, ...all);
  };

  return {
    names: () => config.clusters.map((c) => c.name),
    get: (name) => config.clusters.find((c) => c.name === name),
    list: () => [...config.clusters],
    onChange(cb) {
      listeners.add(cb);
      return () => void listeners.delete(cb);
    },
    setDiscovered(clusters) {
      const next = new Map<string, ClusterConfig>();
      for (const c of clusters) if (!configuredNames.has(c.name)) next.set(c.name, c);
      const change: ClusterSetChange = { added: [], removed: [], changed: [] };
      for (const [name, c] of next) {
        const before = discovered.get(name);
        if (!before) change.added.push(name);
        else if (JSON.stringify(before) !== JSON.stringify(c)) change.changed.push(name);
      }
      for (const name of discovered.keys()) if (!next.has(name)) change.removed.push(name);
      discovered = next;
      if (!change.added.length && !change.removed.length && !change.changed.length) return change;
      rebuild();
      for (const cb of listeners) cb(change);
      return change;
    },
  };
}
