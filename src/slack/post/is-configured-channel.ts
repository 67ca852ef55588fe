import type { Config } from '../../config/config-schema.js';

/**
 * Whether the configuration names `channel` for `cluster` (its slack.alertChannel or one of its
 * slack.channels). A channel read from Redis (an incident's, a thread record's) is used only then:
 * whatever a Redis writer stores, the bot never posts to another channel or a DM. A cluster no longer
 * in the configuration (a deleted fleet cluster whose threads are being resolved) may still post in a
 * channel the configuration names for some cluster or fleet.
 */
export function isConfiguredChannel(config: Config, cluster: string, channel: string): boolean {
  const c = config.clusters.find((x) => x.name === cluster);
  if (c) return c.slack.alertChannel === channel || c.slack.channels.includes(channel);
  const named = [...config.clusters.map((x) => x.slack), ...config.fleets.map((f) => f.slack)];
  return named.some((s) => s.alertChannel === channel || s.channels.includes(channel));
}
