import type { Config } from '../config/config-schema.js';

/**
 * Whether the configuration names `channel` for `cluster` (its slack.alertChannel or one of its
 * slack.channels). A channel read from Redis (an incident's, a thread record's) is used only then:
 * whatever a Redis writer stores, the bot never posts to another channel or a DM.
 */
export function isConfiguredChannel(config: Config, cluster: string, channel: string): boolean {
  const c = config.clusters.find((x) => x.name === cluster);
  return !!c && (c.slack.alertChannel === channel || c.slack.channels.includes(channel));
}
