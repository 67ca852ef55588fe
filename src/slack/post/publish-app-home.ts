import type { webApi } from '@slack/bolt';
import type { ClusterConfig, Config } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';
import type { ApprovalStore } from '../../approvals/approval-stores.js';
import type { HomeViewersStore } from '../../store/home-viewers-store.js';
import type { ReportStore } from '../../store/report-store.js';
import { renderAppHome, type HomeCluster } from '../render/render-app-home.js';

/** What the App Home needs (the Slack app's listener and the scan workers' refresh build it alike). */
export interface AppHomeDeps {
  config: Config;
  reports: Pick<ReportStore, 'latest'>;
  approvals: Pick<ApprovalStore, 'pendingBefore' | 'get'>;
  viewers: HomeViewersStore;
  /** Is this user an approver of this cluster (slack/handle/handle-approval-authorizer.ts)? */
  isAuthorized: (client: webApi.WebClient, cluster: ClusterConfig, userId: string) => Promise<boolean>;
  now: () => Date;
  log: Logger;
}

/** Home tabs opened within this long are re-published when a cluster's alerts change. */
export const HOME_RECENT_MS = 60 * 60_000;
/** Pending approval requests read for one Home at most. */
const MAX_PENDING = 500;

/**
 * Publish one user's Home tab (views.publish): every cluster the user may query — one with no
 * `slack.channels` limit, or one the user approves for (Home has no channel, so a channel-limited
 * cluster is shown to its approvers only) — with its latest report and the pending approvals that
 * wait on this user (an approver of the cluster, not its proposer, not voted yet).
 */
export async function publishAppHome(deps: AppHomeDeps, client: webApi.WebClient, user: string): Promise<void> {
  const visible: ClusterConfig[] = [];
  const approves = new Set<string>();
  for (const c of deps.config.clusters) {
    const approver = await deps.isAuthorized(client, c, user);
    if (approver) approves.add(c.name);
    if (approver || c.slack.channels.length === 0) visible.push(c);
  }
  const waiting = new Map<string, HomeCluster['waiting']>();
  if (approves.size > 0) {
    for (const id of await deps.approvals.pendingBefore(Number.MAX_SAFE_INTEGER, MAX_PENDING)) {
      const r = await deps.approvals.get(id);
      if (
        !r ||
        r.status !== 'pending' ||
        !approves.has(r.cluster) ||
        r.proposer === user ||
        r.approvals.some((v) => v.user === user)
      )
        continue;
      waiting.set(r.cluster, [
        ...(waiting.get(r.cluster) ?? []),
        { label: r.plan.label, proposer: r.proposer, expiresAt: r.expiresAt },
      ]);
    }
  }
  const clusters: HomeCluster[] = [];
  for (const c of visible)
    clusters.push({
      name: c.name,
      report: (await deps.reports.latest(c.name))?.report,
      waiting: waiting.get(c.name) ?? [],
    });
  await client.views.publish({ user_id: user, view: renderAppHome(user, clusters, deps.now().toISOString()) });
}

/**
 * Re-publish the Home of every user who opened it within {@link HOME_RECENT_MS} (a cluster's alerts
 * changed). Best effort: a failure is logged, never fails the caller (the next open refreshes anyway).
 */
export async function refreshAppHomes(deps: AppHomeDeps, client: webApi.WebClient): Promise<number> {
  let published = 0;
  for (const user of await deps.viewers.recent(new Date(deps.now().getTime() - HOME_RECENT_MS))) {
    try {
      await publishAppHome(deps, client, user);
      published += 1;
    } catch (err) {
      deps.log.warn({ user, err }, 'app home not refreshed');
    }
  }
  return published;
}
