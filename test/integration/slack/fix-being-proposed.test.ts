import { describe, expect, it } from '@jest/globals';
import { proposeFixActionId } from '../../../src/slack/action-ids.js';
import type { RecordedRequest } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { eventually } from '../../support/eventually.js';
import { blockActionBody } from '../../support/sign-slack-request.js';
import { APPROVAL_CHANNEL, startApprovalBot, type ApprovalBot } from '../../support/start-approval-bot.js';
import { scaleWeb, web } from '../../support/web-deployment.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

/**
 * One pending request per fix while it is being planned: a fix pressed again (by anyone, from any
 * message) while the remediation worker plans an earlier press is not planned twice. The later
 * presser is told who plans it and, once its request is posted, gets a link to it. A planner that
 * dies (or hangs) mid-claim loses the fix when its claim expires: a later press proposes anew and the
 * stuck planner posts nothing. Bolt's HTTP receiver with signed requests, real Redis, the propose
 * worker on BullMQ, the fake Kubernetes API server (which holds the planner's dry run in flight).
 */
/** The alert parent that offers the fix (its thread gets the request), and an answer card offering it too. */
const ALERT_TS = '1700000000.000100';
const CARD_TS = '1700000050.000200';

/** Offer the fix on a message (a stored proposal, as a scan stores one per button). */
function offer(bot: ApprovalBot): Promise<string> {
  return bot.proposals.save({
    cluster: 'prod-east',
    findingId: 'test',
    fingerprint: 'fp',
    proposal: scaleWeb,
    createdAt: new Date().toISOString(),
  });
}

let seq = 0;
/** Press the fix button `pid` on message `messageTs` as `user` (a signed block_actions request). */
async function press(bot: ApprovalBot, pid: string, user: string, messageTs: string): Promise<void> {
  const r = await bot.post(
    blockActionBody({
      actionId: proposeFixActionId(0),
      value: pid,
      user_id: user,
      response_url: bot.slack.responseUrl(`press-${++seq}`),
      message_ts: messageTs,
    }),
  );
  expect(r.status).toBe(200);
}

/** What the worker told `user` ephemerally (the proposer's own "posted below" note aside). */
function toldTo(bot: ApprovalBot, user: string): { text: string; thread_ts?: string }[] {
  return bot.slack
    .callsTo('chat.postEphemeral')
    .filter((c) => c.body.user === user && !/^Your request for .* is posted below/.test(String(c.body.text)))
    .map((c) => ({ text: String(c.body.text), thread_ts: c.body.thread_ts as string | undefined }));
}

/** The approval request messages posted so far. */
function requestMessages(bot: ApprovalBot): Any[] {
  return bot.slack
    .callsTo('chat.postMessage')
    .filter((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_'))
    .map((c) => c.body);
}

/** The request message's ts, as chat.postMessage answered it (the fake Slack keeps each message by channel/ts). */
function postedTs(bot: ApprovalBot, requestId: string): string {
  const entry = [...bot.slack.messages.entries()].find(([, m]) => JSON.stringify(m.blocks ?? '').includes(requestId));
  return entry![0].split('/')[1]!;
}

/** The permalink a waiting presser gets (render-proposal-refusal.ts requestLink). */
function linkTo(ts: string, threadTs: string): string {
  return `<https://slack.com/archives/${APPROVAL_CHANNEL}/p${ts.replace('.', '')}?thread_ts=${threadTs}&cid=${APPROVAL_CHANNEL}|its thread>`;
}

/** Hold every server-side dry run at the API server (the planner stays mid-claim) until released. */
function holdDryRuns(bot: ApprovalBot, opts: { onlyFirst?: boolean } = {}) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held: RecordedRequest[] = [];
  bot.kube.hold = (r) => {
    if (r.query.dryRun !== 'All' || (opts.onlyFirst && held.length > 0)) return undefined;
    held.push(r);
    return gate;
  };
  return {
    held,
    release() {
      bot.kube.hold = undefined;
      release();
    },
  };
}

async function approvalKeys(bot: ApprovalBot): Promise<string[]> {
  return bot.redis.keys('{k8s-health:approvals}:approval:*');
}

describe('a fix pressed while it is being planned', () => {
  it('tells the later pressers who plans it, then links each to the request once it is posted', async () => {
    const bot = await startApprovalBot({ objects: [web] });
    try {
      const [onAlert, onCard] = [await offer(bot), await offer(bot)];
      const dryRuns = holdDryRuns(bot);
      await press(bot, onAlert, 'U0PAT', ALERT_TS);
      await bot.slack.waitFor('the planner in its dry run', () => dryRuns.held.length === 1, 30_000);
      // Ann presses the same fix on the answer card, Ben on the alert, Pat again on the card: nobody plans it twice.
      await press(bot, onCard, 'U0ANN', CARD_TS);
      await press(bot, onAlert, 'U0BEN', ALERT_TS);
      await press(bot, onCard, 'U0PAT', CARD_TS);
      const planning =
        'right now: a link to its approval request follows here once it is posted (one request per fix). If none comes within 2 minutes, press it again.';
      const waiting = await bot.slack.waitFor(
        'the later pressers told who plans it',
        () => {
          const told = ['U0ANN', 'U0BEN', 'U0PAT'].map((u) => toldTo(bot, u));
          return told.every((t) => t.length === 1) && told;
        },
        30_000,
      );
      expect(waiting).toEqual([
        [{ text: `This fix is being proposed by <@U0PAT> ${planning}`, thread_ts: CARD_TS }],
        [{ text: `This fix is being proposed by <@U0PAT> ${planning}`, thread_ts: ALERT_TS }],
        [{ text: `You already pressed this fix and it is being planned ${planning}`, thread_ts: CARD_TS }],
      ]);
      expect(requestMessages(bot)).toEqual([]);

      dryRuns.release();
      const [message] = await bot.slack.waitFor(
        'the request posted',
        () => requestMessages(bot).length > 0 && requestMessages(bot),
        30_000,
      );
      expect(message!.thread_ts).toBe(ALERT_TS);
      const requestId = String(JSON.stringify(message!.blocks).match(/approval:(r_[A-Za-z0-9_-]+)/)![1]);
      const ts = postedTs(bot, requestId);
      const linked = await bot.slack.waitFor(
        'each later presser linked to the request',
        () => {
          const told = ['U0ANN', 'U0BEN', 'U0PAT'].map((u) => toldTo(bot, u));
          return told.every((t) => t.length === 2) && told.map((t) => t[1]);
        },
        30_000,
      );
      expect(linked).toEqual([
        {
          text: `This fix is already proposed by <@U0PAT> and waiting for approvals in ${linkTo(ts, ALERT_TS)}: approve it there (one request per fix).`,
          thread_ts: CARD_TS,
        },
        // Ben pressed in the request's own thread.
        {
          text: 'This fix is already proposed by <@U0PAT> and waiting for approvals in this thread: approve it there (one request per fix).',
          thread_ts: ALERT_TS,
        },
        {
          text: `You already proposed this fix: your request is waiting for approvals in ${linkTo(ts, ALERT_TS)}.`,
          thread_ts: CARD_TS,
        },
      ]);
      // One request, planned once (one dry run), proposed once; the link leads to a request that approves as any other.
      expect(await approvalKeys(bot)).toHaveLength(1);
      expect(bot.kube.requests.filter((r) => r.query.dryRun === 'All')).toHaveLength(1);
      expect((await bot.audit.list()).filter((e) => e.event === 'proposed')).toHaveLength(1);
      expect((await bot.approveTwice(requestId)).status).toBe('succeeded');
      expect(bot.kube.writes.filter((w) => w.name === 'web' && !w.dryRun)).toHaveLength(1);
    } finally {
      await bot.stop();
    }
  }, 90_000);

  it('ten simultaneous presses of one fix make exactly one request, and the nine others are each linked to it', async () => {
    const bot = await startApprovalBot({ objects: [web] });
    try {
      const users = ['U0PAT', 'U0ANN', 'U0BEN', ...Array.from({ length: 7 }, (_, i) => `U0SRE${i}`)];
      // Each presses it on a message of their own (answer cards, Details), so each gets a link, not "this thread".
      const offers = await Promise.all(users.map(() => offer(bot)));
      const messageOf = (i: number) => `17000001${String(i).padStart(2, '0')}.000300`;
      await Promise.all(users.map((u, i) => press(bot, offers[i]!, u, messageOf(i))));
      const [message] = await bot.slack.waitFor(
        'the request posted',
        () => requestMessages(bot).length > 0 && requestMessages(bot),
        30_000,
      );
      const requestId = String(JSON.stringify(message!.blocks).match(/approval:(r_[A-Za-z0-9_-]+)/)![1]);
      const proposer = (await eventually(
        () => bot.approvals.get(requestId),
        (r) => r !== undefined,
      ))!.proposer;
      const ts = postedTs(bot, requestId);
      const link = linkTo(ts, message!.thread_ts as string);
      const others = users.filter((u) => u !== proposer);
      // Each of the nine is pointed to the request: at once (it was stored already) or once it is posted.
      await bot.slack.waitFor(
        'all nine linked',
        () => others.every((u) => toldTo(bot, u).some((t) => t.text.includes(link))),
        30_000,
      );
      for (const [i, u] of users.entries()) {
        if (u === proposer) continue;
        const told = toldTo(bot, u);
        // Told in the thread they pressed in; "being proposed" first when they pressed while it was planned.
        expect(told.every((t) => t.thread_ts === messageOf(i))).toBe(true);
        expect(told.at(-1)!.text).toBe(
          `This fix is already proposed by <@${proposer}> and waiting for approvals in ${link}: approve it there (one request per fix).`,
        );
        expect(
          told.slice(0, -1).every((t) => t.text.startsWith(`This fix is being proposed by <@${proposer}> right now`)),
        ).toBe(true);
      }
      expect(toldTo(bot, proposer)).toEqual([]);
      await eventually(
        () => bot.proposeQueue.getJobCounts('waiting', 'active', 'completed', 'failed'),
        (c) => c.completed === 10,
      );
      expect(await bot.proposeQueue.getJobCounts('waiting', 'active', 'completed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        completed: 10,
        failed: 0,
      });
      expect(requestMessages(bot)).toHaveLength(1);
      expect(await approvalKeys(bot)).toHaveLength(1);
      expect((await bot.audit.list()).filter((e) => e.event === 'proposed')).toHaveLength(1);
    } finally {
      await bot.stop();
    }
  }, 90_000);

  it('a planner that outlives its claim (dead or stuck) loses the fix: a later press proposes anew, the stuck one posts nothing', async () => {
    // A claim of 2 s stands for production's 2 minutes.
    const bot = await startApprovalBot({ objects: [web], planningClaimSeconds: 2 });
    try {
      const [onAlert, onCard] = [await offer(bot), await offer(bot)];
      const firstDryRun = holdDryRuns(bot, { onlyFirst: true });
      await press(bot, onAlert, 'U0PAT', ALERT_TS);
      await bot.slack.waitFor('the first planner in its dry run', () => firstDryRun.held.length === 1, 30_000);
      await press(bot, onCard, 'U0ANN', CARD_TS);
      const told = await bot.slack.waitFor('Ann told', () => toldTo(bot, 'U0ANN')[0], 30_000);
      expect(told.text).toBe(
        'This fix is being proposed by <@U0PAT> right now: a link to its approval request follows here once it is posted (one request per fix). If none comes within 2 seconds, press it again.',
      );
      // The claim expires with no request made: the fix is free again.
      expect(
        await eventually(
          () => bot.redis.keys('{k8s-health:approvals}:approvals:fix*'),
          (k) => k.length === 0,
          30_000,
          100,
        ),
      ).toEqual([]);
      await press(bot, onCard, 'U0BEN', CARD_TS);
      const [message] = await bot.slack.waitFor(
        "Ben's request posted",
        () => requestMessages(bot).length > 0 && requestMessages(bot),
        30_000,
      );
      const requestId = String(JSON.stringify(message!.blocks).match(/approval:(r_[A-Za-z0-9_-]+)/)![1]);
      expect(message!.thread_ts).toBe(CARD_TS);
      expect(
        (await eventually(
          () => bot.approvals.get(requestId),
          (r) => r !== undefined,
        ))!.proposer,
      ).toBe('U0BEN');

      // The stuck planner comes back: it finds Ben's request holding the fix, posts nothing, and points Pat to it.
      firstDryRun.release();
      const pat = await bot.slack.waitFor('Pat pointed to the request', () => toldTo(bot, 'U0PAT')[0], 30_000);
      expect(pat).toEqual({
        text: `This fix is already proposed by <@U0BEN> and waiting for approvals in ${linkTo(postedTs(bot, requestId), CARD_TS)}: approve it there (one request per fix).`,
        thread_ts: ALERT_TS,
      });
      await eventually(
        () => bot.proposeQueue.getJobCounts('active', 'completed'),
        (c) => c.active === 0 && c.completed === 3,
      );
      expect(requestMessages(bot)).toHaveLength(1);
      expect(await approvalKeys(bot)).toEqual([`{k8s-health:approvals}:approval:${requestId}`]);
      expect((await bot.audit.list()).filter((e) => e.event === 'proposed').map((e) => e.user)).toEqual(['U0BEN']);
    } finally {
      await bot.stop();
    }
  }, 90_000);
});
