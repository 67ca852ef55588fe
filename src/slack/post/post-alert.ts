import type { WebClient } from '@slack/web-api';
import { proposalKey } from '../render/render-blocks.js';
import type { ChannelLimiter } from './create-channel-limiter.js';
import type { Incident } from '../../alerts/incident.js';
import type { AlertOwner, AlertQuietStore, AlertSnooze } from '../../alerts/alert-quiet-store.js';
import type { AlertThread, AlertThreadStore } from '../../alerts/alert-thread-store.js';
import type { ProposalStore } from '../../store/proposal-store.js';
import { renderAlertParent, renderAlertReply } from '../render/render-alert.js';
import type { SlackMessage } from '../render/clamp-blocks.js';
import type { Logger } from '../../log/logger.js';

/** What {@link postAlert} needs. */
export interface PostAlertDeps {
  /** A WebClient with `rejectRateLimitedCalls: true`, so 429s reach the shared limiter. */
  client: WebClient;
  /** Thread records, each opened under its incident's lock with the incident as stored (alerts/alert-thread-store.ts). */
  threads: AlertThreadStore<Incident>;
  limiter: ChannelLimiter;
  proposals: ProposalStore;
  /** Owners and snoozes: a snoozed incident gets no replies, its parent still follows the state. */
  quiet: AlertQuietStore;
  /** How the thread's Prometheus alerts stand (alertmanager/alert-receipt-store.ts), shown on the parent; absent: not shown. */
  prometheusTally?: (channel: string, threadTs: string) => Promise<{ total: number; resolved: number }>;
  now: () => Date;
  log: Logger;
}

/** What one notify job asks for: bring the thread of this finding up to this change. */
export interface NotifyRequest {
  cluster: string;
  fingerprint: string;
  seq: number;
}

/** How many 429s one Slack call waits out inside the job before the job itself is retried. */
const MAX_RATE_LIMITED_TRIES = 5;

/**
 * Bring an incident's Slack thread up to date (numbered flow):
 * 1.–2. open the thread (alerts/alert-thread-store.ts withThread): its lock (one poster per thread,
 *    across workers), the incident as stored and the thread record; everything up to `postedSeq` is
 *    already in Slack;
 * 3. no parent yet → post it (chat.postMessage) and record its ts at once;
 * 4. each later change → one reply, recorded (postedSeq) right after Slack accepted it — unless the
 *    incident is snoozed (alerts/alert-quiet-store.ts): then the change is recorded as handled without
 *    a reply (the parent shows the state); a resolution is always replied and ends the snooze;
 * 5. after changes, edit the parent to the current state (chat.update), with its owner and snooze.
 * A retried job (crash, timeout, 429, 5xx) re-reads the record and posts only what is missing, so
 * nothing is posted twice; a job for an older change finds its change already posted by a newer job.
 */
export async function postAlert(deps: PostAlertDeps, req: NotifyRequest): Promise<{ posted: number }> {
  return deps.threads.withThread(req.cluster, req.fingerprint, async ({ incident: inc, thread: stored, save }) => {
    if (!inc) return { posted: 0 }; // forgotten long after resolution: nothing left to say
    let thread = stored;
    const pending = inc.changes.filter((c) => c.seq > (thread?.postedSeq ?? 0));
    let snooze = pending.length > 0 ? await deps.quiet.getSnooze(inc.cluster, inc.fingerprint) : undefined;
    let posted = 0;
    let edit = false;
    for (const change of pending) {
      if (!thread) {
        const proposalIds = await saveProposals(deps, inc, {});
        const owner = await deps.quiet.getOwner(inc.cluster, inc.key);
        const res = await call(deps, inc.channel, () => deps.client.chat.postMessage({ channel: inc.channel, ...parent(inc, proposalIds, { owner, snooze }), unfurl_links: false }));
        thread = { channel: (res.channel as string | undefined) ?? inc.channel, ts: res.ts as string, postedSeq: change.seq, proposalIds };
        await save(thread);
        posted += 1;
        deps.log.info({ cluster: inc.cluster, finding: inc.finding.id, fingerprint: inc.fingerprint, ts: thread.ts }, 'alert thread opened');
        // The parent already shows the current state: an "opened" change needs no reply.
        if (change.kinds.every((k) => k === 'opened')) continue;
      }
      const resolves = change.kinds.includes('resolved') || change.kinds.includes('merged');
      // An `opened` change is the parent itself, and a snoozed incident gets no reply: recorded as handled.
      if (change.kinds.every((k) => k === 'opened') || (snooze && !resolves)) {
        thread = { ...thread, postedSeq: change.seq };
        await save(thread);
        edit = true;
        continue;
      }
      if (resolves && snooze) {
        await deps.quiet.unsnooze(inc.cluster, inc.fingerprint);
        snooze = undefined;
      }
      const reply = renderAlertReply(inc, change);
      const t: AlertThread = thread;
      await call(deps, t.channel, () => deps.client.chat.postMessage({ channel: t.channel, thread_ts: t.ts, text: reply.text, blocks: reply.blocks, unfurl_links: false }));
      thread = { ...t, postedSeq: change.seq };
      await save(thread);
      posted += 1;
      edit = true;
    }
    if (edit && thread) await updateParent(deps, inc, thread, save, snooze);
    return { posted };
  });
}

/**
 * Re-render an existing thread's parent after its owner or snooze changed (the alert thread buttons,
 * slack/handle/handle-alert-thread.ts), under the same lock as the notify jobs. False when the incident or
 * its thread is not known (forgotten, or not posted yet).
 */
export async function refreshAlertParent(deps: PostAlertDeps, cluster: string, fingerprint: string): Promise<boolean> {
  return deps.threads.withThread(cluster, fingerprint, async ({ incident, thread, save }) => {
    if (!incident || !thread) return false;
    await updateParent(deps, incident, thread, save, await deps.quiet.getSnooze(cluster, fingerprint));
    return true;
  });
}

async function updateParent(deps: PostAlertDeps, inc: Incident, thread: AlertThread, save: (t: AlertThread) => Promise<void>, snooze: AlertSnooze | undefined): Promise<void> {
  // The proposal store is visited only when the root cause offers a fix not stored yet.
  const proposalIds = await saveProposals(deps, inc, thread.proposalIds);
  if (Object.keys(proposalIds).length !== Object.keys(thread.proposalIds).length) await save({ ...thread, proposalIds });
  const owner = await deps.quiet.getOwner(inc.cluster, inc.key);
  const prometheus = await deps.prometheusTally?.(thread.channel, thread.ts);
  await call(deps, thread.channel, () => deps.client.chat.update({ channel: thread.channel, ts: thread.ts, ...parent(inc, proposalIds, { owner, snooze, ...(prometheus ? { prometheus } : {}) }) }));
}

function parent(inc: Incident, proposalIds: Record<string, string>, quiet: { owner?: AlertOwner; snooze?: AlertSnooze; prometheus?: { total: number; resolved: number } }): SlackMessage {
  return renderAlertParent(inc, { proposalIds: byProposalKey(inc, proposalIds), ...(quiet.owner ? { owner: quiet.owner } : {}), ...(quiet.snooze ? { snooze: quiet.snooze } : {}), ...(quiet.prometheus ? { prometheus: quiet.prometheus } : {}) });
}

/** Stored proposal ids are keyed by proposal content; the renderer wants them by proposalKey. */
function byProposalKey(inc: Incident, ids: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  inc.finding.remediations.forEach((r, i) => {
    const id = ids[JSON.stringify(r)];
    if (id) out[proposalKey(inc.finding, i)] = id;
  });
  return out;
}

/** Store each fix of the finding once (the button carries only the opaque id; a click on it reads the proposal back). */
async function saveProposals(deps: PostAlertDeps, inc: Incident, known: Record<string, string>): Promise<Record<string, string>> {
  if (inc.status === 'resolved') return known;
  const out = { ...known };
  for (const proposal of inc.finding.remediations) {
    const k = JSON.stringify(proposal);
    if (out[k]) continue;
    out[k] = await deps.proposals.save({ cluster: inc.cluster, findingId: inc.finding.id, fingerprint: inc.fingerprint, proposal, createdAt: deps.now().toISOString() });
  }
  return out;
}

/**
 * One Slack call in a channel: wait for the channel's slot (shared limiter), and on 429 push the
 * channel's next slot by Retry-After for every worker, then try again. Other errors propagate:
 * the notify job fails and BullMQ retries it with backoff.
 */
async function call<T>(deps: PostAlertDeps, channel: string, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await deps.limiter.wait(channel);
    try {
      return await fn();
    } catch (err) {
      const retryAfter = (err as { code?: string; retryAfter?: number }).code === 'slack_webapi_rate_limited_error' ? (err as { retryAfter?: number }).retryAfter : undefined;
      if (retryAfter === undefined || attempt >= MAX_RATE_LIMITED_TRIES) throw err;
      deps.log.warn({ channel, retryAfterSeconds: retryAfter }, 'slack rate limited');
      await deps.limiter.pause(channel, retryAfter * 1000);
    }
  }
}
