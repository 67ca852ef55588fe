import type { WebClient } from '@slack/web-api';
import { proposalKey } from '../render/render-blocks.js';
import type { ChannelLimiter } from './create-channel-limiter.js';
import type { Incident } from '../../alerts/incident.js';
import type { AlertOwner, AlertQuietStore, AlertSnooze } from '../../alerts/alert-quiet-store.js';
import type { AlertThread, AlertThreadStore } from '../../alerts/alert-thread-store.js';
import type { ProposalStore } from '../../store/proposal-store.js';
import { renderAlertParent, renderAlertReply, type AlertParentOptions } from '../render/render-alert.js';
import type { SlackMessage } from '../render/clamp-blocks.js';
import type { Logger } from '../../log/logger.js';
import { isFleet, isOngoing, markRecovered, type FleetIncident } from '../../alerts/fleet-incident.js';
import type { FleetIncidentStore } from '../../alerts/fleet-incident-store.js';
import { renderFleetMemberCard, renderFleetMemberReply, renderFleetParent } from '../render/render-fleet-parent.js';
import { fixKey } from '../../approvals/request/fix-key.js';
import type { AnswerCardStore } from '../../store/answer-card-store.js';
import { renderOutdatedCard } from '../render/render-outdated-card.js';
import type { InPlaceShown } from '../render/render-in-place.js';

/** What {@link postAlert} needs. */
export interface PostAlertDeps {
  /** A WebClient with `rejectRateLimitedCalls: true`, so 429s reach the shared limiter. */
  client: WebClient;
  /**
   * Thread records, each opened under its incident's lock with the incident as stored (alerts/alert-thread-store.ts).
   */
  threads: AlertThreadStore<Incident>;
  limiter: ChannelLimiter;
  proposals: ProposalStore;
  /** Owners and snoozes: a snoozed incident gets no replies, its parent still follows the state. */
  quiet: AlertQuietStore;
  /**
   * How the thread's Prometheus alerts stand (alertmanager/alert-receipt-store.ts), shown on the parent with its
   * "Silence all alerts" menu when Alertmanager is configured; absent: not shown.
   */
  prometheusTally?: (channel: string, threadTs: string) => Promise<PrometheusOnParent>;
  now: () => Date;
  log: Logger;
  /**
   * Fleet incidents (docs/fleet.md): a cluster's incident that joined another cluster's is posted into
   * that thread; an anchor's parent lists every cluster. Absent: every incident has its own thread.
   */
  fleet?: FleetIncidentStore<FleetIncident>;
  /**
   * Whether the configuration names this channel for the cluster (slack/post/is-configured-channel.ts): an
   * incident or thread record naming another channel is not posted to or edited. Absent: not checked.
   */
  channelAllowed?: (cluster: string, channel: string) => boolean;
  /**
   * When fixes last ran (approval store: fixesRan): a fix that ran during this incident has no button on its parent.
   */
  fixesRan?: (fixKeys: readonly string[]) => Promise<Record<string, string>>;
  /** Posted answer cards: those showing this incident are marked outdated when it resolves. */
  answers?: AnswerCardStore;
  /** Reversible changes still in place in a cluster, each with whether its backend is still down. */
  inPlace?: (cluster: string) => Promise<InPlaceShown[]>;
}

/** The Prometheus alerts line (and menu) of a parent. */
export type PrometheusOnParent = NonNullable<AlertParentOptions['prometheus']>;

/** What one notify job asks for: bring the thread of this finding up to this change. */
export interface NotifyRequest {
  cluster: string;
  fingerprint: string;
  seq: number;
  /** The follow-up of a fleet member's first message: its own card as a reply in the fleet thread. */
  memberCard?: boolean;
}

/** A fleet member's thread record: the fleet thread's ts, and whether its card was replied yet. */
type MemberThread = AlertThread & { fleet?: string; memberCardPending?: boolean };

/** Thrown while a fleet member waits for its anchor's thread to be posted: the job is retried. */
export class FleetAnchorNotPostedError extends Error {
  override readonly name = 'FleetAnchorNotPostedError';
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
export async function postAlert(
  deps: PostAlertDeps,
  req: NotifyRequest,
): Promise<{ posted: number; memberCard?: boolean }> {
  return deps.threads.withThread(req.cluster, req.fingerprint, async ({ incident: inc, thread: found, save }) => {
    if (!inc) return { posted: 0 }; // forgotten long after resolution: nothing left to say
    if (!placeAllowed(deps, req.cluster, inc)) return { posted: 0 };
    let thread: MemberThread | undefined = threadAllowed(deps, inc, found);
    const pending = inc.changes.filter((c) => c.seq > (thread?.postedSeq ?? 0));
    let snooze = pending.length > 0 ? await deps.quiet.getSnooze(inc.cluster, inc.fingerprint) : undefined;
    let posted = 0;
    let edit = false;
    // A fleet incident another cluster anchors: this incident lives in that thread (docs/fleet.md).
    const fleetKey = deps.fleet ? await deps.fleet.memberOf(inc.cluster, inc.fingerprint) : undefined;
    const fleet = fleetKey && deps.fleet ? await deps.fleet.get(fleetKey) : undefined;
    const joiner =
      isFleet(fleet) &&
      (fleet.anchor.cluster !== inc.cluster || fleet.anchor.fingerprint !== inc.fingerprint) &&
      fleet.members.some((m) => m.cluster === inc.cluster && m.incidentKey === inc.key);
    // The anchor of a fleet thread: its replies name its cluster too, among the others'.
    const anchors =
      isFleet(fleet) && fleet.anchor.cluster === inc.cluster && fleet.anchor.fingerprint === inc.fingerprint;
    if (joiner && !thread) {
      const anchorThread = await deps.threads.get(fleet.anchor.cluster, fleet.anchor.incidentKey);
      if (!anchorThread)
        throw new FleetAnchorNotPostedError(
          `fleet incident ${fleet.key}: the thread of ${fleet.anchor.cluster} is not posted yet`,
        );
      const opened = pending[0];
      thread = {
        channel: anchorThread.channel,
        ts: anchorThread.ts,
        postedSeq: opened?.seq ?? inc.seq,
        proposalIds: await saveProposals(deps, inc, {}),
        fleet: fleet.key,
        memberCardPending: true,
      };
      await save(thread);
      // The first message naming this cluster is the fleet parent, edited (once for every cluster that joined
      // meanwhile).
      posted += await refreshFleetParent(deps, fleet.key, inc.cluster);
      deps.log.info(
        { cluster: inc.cluster, finding: inc.finding.id, fleet: fleet.key, anchor: fleet.anchor.cluster },
        'alert joined a fleet thread',
      );
      return { posted, memberCard: true };
    }
    if (thread?.memberCardPending && req.memberCard) {
      const t: MemberThread = thread;
      const card = renderFleetMemberCard(inc, byProposalKey(inc, t.proposalIds, await ranDuring(deps, inc)));
      await call(deps, t.channel, () =>
        deps.client.chat.postMessage({
          channel: t.channel,
          thread_ts: t.ts,
          text: card.text,
          blocks: card.blocks,
          unfurl_links: false,
        }),
      );
      thread = { ...t, memberCardPending: false };
      await save(thread);
      posted += 1;
    }
    for (const change of pending) {
      if (!thread) {
        const proposalIds = await saveProposals(deps, inc, {});
        const owner = await deps.quiet.getOwner(inc.cluster, inc.key);
        const ran = await ranDuring(deps, inc);
        const res = await call(deps, inc.channel, () =>
          deps.client.chat.postMessage({
            channel: inc.channel,
            ...parent(inc, proposalIds, { owner, snooze }, ran, []),
            unfurl_links: false,
          }),
        );
        thread = {
          channel: (res.channel as string | undefined) ?? inc.channel,
          ts: res.ts as string,
          postedSeq: change.seq,
          proposalIds,
        };
        await save(thread);
        posted += 1;
        deps.log.info(
          { cluster: inc.cluster, finding: inc.finding.id, fingerprint: inc.fingerprint, ts: thread.ts },
          'alert thread opened',
        );
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
      const replyOpts = change.kinds.includes('resolved') ? { inPlace: await inPlaceOf(deps, inc, thread) } : {};
      const reply =
        thread.fleet || anchors
          ? renderFleetMemberReply(inc, change, replyOpts)
          : renderAlertReply(inc, change, replyOpts);
      const t: MemberThread = thread;
      await call(deps, t.channel, () =>
        deps.client.chat.postMessage({
          channel: t.channel,
          thread_ts: t.ts,
          text: reply.text,
          blocks: reply.blocks,
          unfurl_links: false,
        }),
      );
      thread = { ...t, postedSeq: change.seq };
      await save(thread);
      posted += 1;
      edit = true;
      if (change.kinds.includes('resolved')) await outdateAnswerCards(deps, inc, t);
    }
    if (thread?.fleet && deps.fleet) {
      // A fleet member: its recovery is marked in place in the fleet parent; its own card is a reply, not edited.
      if (inc.status === 'resolved') {
        const key = thread.fleet;
        await deps.fleet.update(key, (f) =>
          f ? markRecovered(f, inc.cluster, inc.resolvedAt ?? deps.now().toISOString()) : undefined,
        );
        posted += await refreshFleetParent(deps, key);
      }
      return { posted };
    }
    if (edit && thread) await updateParent(deps, inc, thread, save, snooze);
    return { posted };
  });
}

/**
 * Edit a fleet thread's parent to the fleet incident's current state — unless a newer rendering than
 * `cluster`'s joining already went out (many clusters joining within a second share one edit).
 * Returns 1 when it edited.
 */
async function refreshFleetParent(deps: PostAlertDeps, key: string, cluster?: string): Promise<number> {
  const store = deps.fleet;
  if (!store) return 0;
  // Claim the next edit unless one claimed after this cluster joined is coming: it will show this cluster too.
  let claimed: FleetIncident | undefined;
  await store.update(key, (f) => {
    claimed = undefined;
    if (!f) return undefined;
    const member = cluster ? f.members.find((m) => m.cluster === cluster) : undefined;
    if (member && (f.renderClaimVersion ?? 0) >= member.joinedVersion) return undefined;
    claimed = { ...f, renderClaimVersion: f.version };
    return claimed;
  });
  if (!claimed) return 0;
  // Edits have a slot of their own: a burst of new incidents in the channel does not hold them back.
  await deps.limiter.wait(`${claimed.channel}#edit`);
  // Rendered as of now, after the wait: every cluster that joined meanwhile is in it.
  const f = await store.update(key, (x) =>
    x
      ? { ...x, renderedVersion: x.version, renderClaimVersion: Math.max(x.renderClaimVersion ?? 0, x.version) }
      : undefined,
  );
  if (!f) return 0;
  const anchorThread = await deps.threads.get(f.anchor.cluster, f.anchor.incidentKey);
  if (!anchorThread) return 0;
  const { state } = await loadAnchor(deps, f);
  if (!state) return 0;
  const msg = renderFleetParent(f, state);
  await callUnlimited(deps, anchorThread.channel, () =>
    deps.client.chat.update({ channel: anchorThread.channel, ts: anchorThread.ts, text: msg.text, blocks: msg.blocks }),
  );
  return 1;
}

/**
 * The anchor's incident as stored, for the parent's wording (read under its lock; nothing is posted while holding it).
 */
async function loadAnchor(deps: PostAlertDeps, f: FleetIncident): Promise<{ state?: Incident }> {
  let out: Incident | undefined;
  await deps.threads.withThread(f.anchor.cluster, f.anchor.fingerprint, async ({ incident }) => {
    out = incident;
  });
  return { state: out };
}

/**
 * Re-render an existing thread's parent after its owner or snooze changed (the alert thread buttons,
 * slack/handle/handle-alert-thread.ts), under the same lock as the notify jobs. False when the incident or
 * its thread is not known (forgotten, or not posted yet).
 */
export async function refreshAlertParent(deps: PostAlertDeps, cluster: string, fingerprint: string): Promise<boolean> {
  return deps.threads.withThread(cluster, fingerprint, async ({ incident, thread: found, save }) => {
    const thread = incident && placeAllowed(deps, cluster, incident) ? threadAllowed(deps, incident, found) : undefined;
    if (!incident || !thread) return false;
    await updateParent(deps, incident, thread, save, await deps.quiet.getSnooze(cluster, fingerprint));
    return true;
  });
}

/**
 * The incident belongs to the cluster asked for and names a configured channel; otherwise nothing is posted (logged).
 */
function placeAllowed(deps: PostAlertDeps, cluster: string, inc: Incident): boolean {
  if (inc.cluster === cluster && (!deps.channelAllowed || deps.channelAllowed(cluster, inc.channel))) return true;
  deps.log.warn(
    { cluster, fingerprint: inc.fingerprint },
    'alert not posted: the stored incident names a channel (or cluster) the configuration does not; was the alert state written by someone else?',
  );
  return false;
}

/** A thread record in a channel the configuration no longer names (or never did) is not replied under nor edited. */
function threadAllowed(deps: PostAlertDeps, inc: Incident, thread: AlertThread | undefined): AlertThread | undefined {
  if (!thread || !deps.channelAllowed || deps.channelAllowed(inc.cluster, thread.channel)) return thread;
  deps.log.warn(
    { cluster: inc.cluster, fingerprint: inc.fingerprint },
    'alert thread record ignored: its channel is not configured for the cluster; the next change opens a new thread',
  );
  return undefined;
}

async function updateParent(
  deps: PostAlertDeps,
  inc: Incident,
  thread: AlertThread,
  save: (t: AlertThread) => Promise<void>,
  snooze: AlertSnooze | undefined,
): Promise<void> {
  // A fleet member's thread is the fleet thread: its parent is the fleet's, never this cluster's card.
  const memberOf = (thread as MemberThread).fleet;
  if (memberOf) {
    await refreshFleetParent(deps, memberOf);
    return;
  }
  const fleetKey = deps.fleet ? await deps.fleet.memberOf(inc.cluster, inc.fingerprint) : undefined;
  if (fleetKey && deps.fleet) {
    let fleet = await deps.fleet.get(fleetKey);
    if (isFleet(fleet) && fleet.anchor.cluster === inc.cluster && fleet.anchor.fingerprint === inc.fingerprint) {
      if (inc.status === 'resolved' && fleet.members.some((m) => m.cluster === inc.cluster && !m.recoveredAt)) {
        fleet =
          (await deps.fleet.update(fleetKey, (f) =>
            f ? markRecovered(f, inc.cluster, inc.resolvedAt ?? deps.now().toISOString()) : undefined,
          )) ?? fleet;
      }
      if (isFleet(fleet) && (isOngoing(fleet) || inc.status === 'resolved')) {
        const msg = renderFleetParent(fleet, inc);
        await call(deps, thread.channel, () =>
          deps.client.chat.update({ channel: thread.channel, ts: thread.ts, text: msg.text, blocks: msg.blocks }),
        );
        return;
      }
    }
  }
  // The proposal store is visited only when the root cause offers a fix not stored yet.
  const proposalIds = await saveProposals(deps, inc, thread.proposalIds);
  if (Object.keys(proposalIds).length !== Object.keys(thread.proposalIds).length)
    await save({ ...thread, proposalIds });
  const owner = await deps.quiet.getOwner(inc.cluster, inc.key);
  const ran = await ranDuring(deps, inc);
  const inPlace = await inPlaceOf(deps, inc, thread);
  const prometheus = await deps.prometheusTally?.(thread.channel, thread.ts);
  await call(deps, thread.channel, () =>
    deps.client.chat.update({
      channel: thread.channel,
      ts: thread.ts,
      ...parent(inc, proposalIds, { owner, snooze, ...(prometheus ? { prometheus } : {}) }, ran, inPlace),
    }),
  );
}

function parent(
  inc: Incident,
  proposalIds: Record<string, string>,
  quiet: { owner?: AlertOwner; snooze?: AlertSnooze; prometheus?: PrometheusOnParent },
  ran: ReadonlySet<number>,
  inPlace: InPlaceShown[],
): SlackMessage {
  return renderAlertParent(inc, {
    proposalIds: byProposalKey(inc, proposalIds, ran),
    inPlace,
    ...(quiet.owner ? { owner: quiet.owner } : {}),
    ...(quiet.snooze ? { snooze: quiet.snooze } : {}),
    ...(quiet.prometheus ? { prometheus: quiet.prometheus } : {}),
  });
}

/** The reversible changes approved in this thread that are still in place. */
async function inPlaceOf(deps: PostAlertDeps, inc: Incident, thread: AlertThread): Promise<InPlaceShown[]> {
  if (!deps.inPlace) return [];
  return (await deps.inPlace(inc.cluster)).filter(
    (s) => s.change.thread.channel === thread.channel && s.change.thread.threadTs === thread.ts,
  );
}

/**
 * Stored proposal ids are keyed by proposal content; the renderer wants them by proposalKey (fixes that ran left out).
 */
function byProposalKey(inc: Incident, ids: Record<string, string>, ran: ReadonlySet<number>): Record<string, string> {
  const out: Record<string, string> = {};
  inc.finding.remediations.forEach((r, i) => {
    const id = ids[JSON.stringify(r)];
    if (id && !ran.has(i)) out[proposalKey(inc.finding, i)] = id;
  });
  return out;
}

/** The indexes of the finding's fixes that ran since this incident opened: their buttons are gone. */
async function ranDuring(deps: PostAlertDeps, inc: Incident): Promise<Set<number>> {
  if (!deps.fixesRan || inc.finding.remediations.length === 0) return new Set();
  const keys = inc.finding.remediations.map((r) => fixKey(inc.cluster, r));
  const ran = await deps.fixesRan(keys);
  const opened = Date.parse(inc.openedAt);
  return new Set(keys.flatMap((k, i) => (ran[k] && !(Date.parse(ran[k]) < opened) ? [i] : [])));
}

/**
 * The incident resolved: every answer card that shows it says so and loses its fix buttons
 * (render-outdated-card.ts), once. A card that cannot be edited (deleted, channel archived) is
 * logged and left: the thread itself says it resolved.
 */
async function outdateAnswerCards(deps: PostAlertDeps, inc: Incident, thread: AlertThread): Promise<void> {
  if (!deps.answers) return;
  for (const card of await deps.answers.takeFor(inc.cluster, inc.fingerprint)) {
    const m = renderOutdatedCard(card.message, {
      title: inc.finding.title,
      at: inc.resolvedAt ?? inc.lastSeenAt,
      thread: { channel: thread.channel, ts: thread.ts },
    });
    await call(deps, card.channel, () =>
      deps.client.chat.update({ channel: card.channel, ts: card.ts, text: m.text, blocks: m.blocks }),
    ).catch((err: unknown) =>
      deps.log.warn(
        { cluster: inc.cluster, channel: card.channel, ts: card.ts, err },
        'answer card not marked outdated',
      ),
    );
  }
}

/**
 * Store each fix of the finding once (the button carries only the opaque id; a click on it reads the proposal back).
 */
async function saveProposals(
  deps: PostAlertDeps,
  inc: Incident,
  known: Record<string, string>,
): Promise<Record<string, string>> {
  if (inc.status === 'resolved') return known;
  const out = { ...known };
  for (const proposal of inc.finding.remediations) {
    const k = JSON.stringify(proposal);
    if (out[k]) continue;
    out[k] = await deps.proposals.save({
      cluster: inc.cluster,
      findingId: inc.finding.id,
      fingerprint: inc.fingerprint,
      proposal,
      createdAt: deps.now().toISOString(),
    });
  }
  return out;
}

/**
 * One Slack call in a channel: wait for the channel's slot (shared limiter), and on 429 push the
 * channel's next slot by Retry-After for every worker, then try again. Other errors propagate:
 * the notify job fails and BullMQ retries it with backoff.
 */
async function call<T>(deps: PostAlertDeps, channel: string, fn: () => Promise<T>, limited = true): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    if (limited || attempt > 1) await deps.limiter.wait(channel);
    try {
      return await fn();
    } catch (err) {
      const retryAfter =
        (err as { code?: string; retryAfter?: number }).code === 'slack_webapi_rate_limited_error'
          ? (err as { retryAfter?: number }).retryAfter
          : undefined;
      if (retryAfter === undefined || attempt >= MAX_RATE_LIMITED_TRIES) throw err;
      deps.log.warn({ channel, retryAfterSeconds: retryAfter }, 'slack rate limited');
      await deps.limiter.pause(channel, retryAfter * 1000);
    }
  }
}

/**
 * A call whose slot was already reserved (fleet parent edits reserve theirs before rendering, so the edit shows the
 * latest state).
 */
function callUnlimited<T>(deps: PostAlertDeps, channel: string, fn: () => Promise<T>): Promise<T> {
  return call(deps, channel, fn, false);
}
