import type { webApi } from '@slack/bolt';
import type { ClusterConfig } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';

/**
 * Approvers are bound by Slack id, never by name (docs/design.md): a user id in approvers.users, or a
 * member of a group in approvers.groups resolved through usergroups.users.list and cached for
 * `ttlMs` (a removed member loses the right within that time). A failing lookup authorizes nobody.
 */
export function createApprovalAuthorizer(opts: { ttlMs?: number; now?: () => number; log?: Logger } = {}) {
  const ttlMs = opts.ttlMs ?? 5 * 60_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { users: Set<string>; until: number }>();
  return async (client: webApi.WebClient, cluster: ClusterConfig, userId: string): Promise<boolean> => {
    if (cluster.approvers.users.includes(userId)) return true;
    for (const group of cluster.approvers.groups) {
      let hit = cache.get(group);
      if (!hit || hit.until <= now()) {
        try {
          const res = await client.usergroups.users.list({ usergroup: group });
          hit = { users: new Set(res.users ?? []), until: now() + ttlMs };
          cache.set(group, hit);
        } catch (err) {
          opts.log?.warn({ group, err }, 'approvers: cannot resolve group');
          continue;
        }
      }
      if (hit.users.has(userId)) return true;
    }
    return false;
  };
}
