import { loadConfig } from '../config/load-config.js';
import { parseConfig } from '../config/load-config.js';
import type { ClusterConfig, Config } from '../config/config-schema.js';
import { findConfigFile } from './find-config-file.js';
import { UsageError } from './usage-error.js';

export { DEFAULT_CONFIG_FILE } from './find-config-file.js';

/**
 * The config file: --config, else $K8S_HEALTH_CONFIG, else ./config/config.yaml when it exists.
 * `required` makes its absence a usage error; otherwise an empty config with defaults is used.
 */
export async function resolveConfig(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  required: boolean,
): Promise<{ config: Config; file?: string }> {
  const file = findConfigFile(flag, env);
  if (!file) {
    if (required)
      throw new UsageError('no config file: pass --config FILE or set K8S_HEALTH_CONFIG (see config/example.yaml)');
    return { config: parseConfig({}, process.cwd()) };
  }
  return { config: await loadConfig(file), file };
}

/** The cluster named `name`, or the only configured one when no name is given. */
export function pickCluster(config: Config, name: string | undefined, file?: string): ClusterConfig {
  const names = config.clusters.map((c) => c.name);
  if (name) {
    const c = config.clusters.find((x) => x.name === name);
    if (!c)
      throw new UsageError(
        `unknown cluster "${name}"${file ? ` in ${file}` : ''}; configured: ${names.join(', ') || '(none)'}`,
      );
    return c;
  }
  if (config.clusters.length === 1) return config.clusters[0]!;
  throw new UsageError(
    config.clusters.length
      ? `several clusters configured, pick one with --cluster: ${names.join(', ')}`
      : 'no clusters configured: add one under `clusters:` in the config file',
  );
}

/**
 * The cluster named `name` among the configured ones, else among the clusters the config's fleets
 * discover (read once from each management cluster: docs/fleet.md), so `check --cluster` and `dump
 * --cluster` work on a discovered cluster like on a configured one.
 */
export async function resolveCluster(config: Config, name: string | undefined, file?: string): Promise<ClusterConfig> {
  if (!config.fleets.length || (name !== undefined && config.clusters.some((c) => c.name === name)))
    return pickCluster(config, name, file);
  if (name === undefined && config.clusters.length) return pickCluster(config, name, file);
  const { discoverFleetsOnce } = await import('../cluster/fleet/start-fleet-discovery.js');
  const found = await discoverFleetsOnce(config.fleets, {
    configuredNames: new Set(config.clusters.map((c) => c.name)),
    timeoutMs: 15_000,
  });
  const all = [...config.clusters, ...found.configs];
  const names = all.map((c) => c.name);
  const unread = found.errors.length ? ` (not read: ${found.errors.join('; ')})` : '';
  if (name === undefined) {
    if (all.length === 1) return all[0]!;
    throw new UsageError(
      all.length
        ? `several clusters configured or discovered, pick one with --cluster: ${names.join(', ')}${unread}`
        : `no clusters configured or discovered${unread}`,
    );
  }
  const c = all.find((x) => x.name === name);
  if (!c)
    throw new UsageError(
      `unknown cluster "${name}"${file ? ` in ${file}` : ''}; configured or discovered: ${names.join(', ') || '(none)'}${unread}`,
    );
  return c;
}
