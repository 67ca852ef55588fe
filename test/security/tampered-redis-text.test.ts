import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { DETAILS_ACTION_ID } from '../../src/slack/action-ids.js';
import { renderApproval } from '../../src/slack/render/render-approval.js';
import { FORGED } from '../support/hostile-text.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';
import { blockActionBody, slashCommandBody } from '../support/sign-slack-request.js';
import { APPROVAL_CHANNEL, APPROVAL_CLUSTER, useApprovalBot } from '../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

/**
 * Attack: someone who can write to Redis stores markup in fields the bot
 * itself writes as numbers or as one of its own words — a report's `status` and a section's `status`
 * and id, an approval request's `required` — hoping the renderers trust those fields because our code
 * wrote them. Through the real Bolt receiver (signed command, Details click, votes) to what the fake
 * Slack API received: every message must be inert (no `<!channel>`, no forged line), the tampered
 * request must never run (its `required` is signed), and nothing is written to the cluster.
 */
const OURS = { mentions: ['U0ALICE', 'U0PAT', 'U0ANN', 'U0BEN', 'U0BOB'] };
const EVIL = `<!channel> look\n${FORGED} *Approved* by <@U0EVIL> <https://evil.example|click>`;
const web: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

const bot = useApprovalBot({ objects: [web] });

const realWrites = () => bot.kube.writes.filter((w) => !w.dryRun);

describe('fields our code writes, rewritten in Redis with markup, stay inert in every message', () => {
  it("a stored report whose status, section status and section id are markup: the channel's answer and the Details reply are inert", async () => {
    const now = new Date().toISOString();
    const report = {
      cluster: APPROVAL_CLUSTER,
      generatedAt: now,
      collectedAt: now,
      status: EVIL,
      sections: [
        { id: 'webhooks', status: EVIL, summary: 's' },
        { id: EVIL, status: '<!here>', summary: 's' },
      ],
      findings: [],
      partial: [],
    };
    // The attacker's raw SET of the stored report (what report-store.ts reads back).
    await bot.redis.set(`${REDIS_PREFIX}report:${APPROVAL_CLUSTER}`, JSON.stringify({ report, storedAt: now }));

    const before = bot.slack.callsTo('chat.postMessage').length;
    expect(
      (
        await bot.post(
          slashCommandBody({
            text: APPROVAL_CLUSTER,
            channel_id: APPROVAL_CHANNEL,
            user_id: 'U0ALICE',
            response_url: bot.slack.responseUrl('cmd'),
          }),
        )
      ).status,
    ).toBe(200);
    const posted = await bot.slack.waitFor('the answer', () => bot.slack.callsTo('chat.postMessage')[before]);
    expect(findInjections(posted.body, OURS)).toEqual([]);
    expect(JSON.stringify(posted.body)).toContain('prod-east: &lt;!channel&gt; lo…');

    const url = bot.slack.responseUrl('details');
    expect(
      (
        await bot.post(
          blockActionBody({
            actionId: DETAILS_ACTION_ID,
            value: APPROVAL_CLUSTER,
            blockId: 'details',
            user_id: 'U0BOB',
            response_url: url,
          }),
        )
      ).status,
    ).toBe(200);
    const details = await bot.slack.waitFor('the Details reply', () =>
      bot.slack.responses.find((r) => r.path === new URL(url).pathname),
    );
    expect(details.body.blocks?.length).toBeGreaterThan(0);
    expect(findInjections(details.body, OURS)).toEqual([]);
    // Details shows it in a rich_text `text` element, as its characters: Slack parses no mention there.
    expect(linesOf(details.body).some((l) => l.includes(' — <!here> · '))).toBe(true);
    expect(bot.kube.writes).toEqual([]);
  });

  it('an approval request whose message ts is rewritten in Redis: votes still count, but no vote edits the other message (its placement is signed)', async () => {
    const { requestId, ephemeral } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'web', replicas: 0 },
      label: 'Scale shop/web to 0',
      risk: 'r',
    });
    if (!requestId) throw new Error(`not proposed: ${ephemeral?.text}`);
    const key = `{k8s-health:approvals}:approval:${requestId}`;
    const stored = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    const own = stored.thread.messageTs!;
    expect(stored.thread.messageMac).toMatch(/^[0-9a-f]{64}$/);
    // Another of the bot's messages in the channel (an alert parent, an answer): the attacker's target.
    stored.thread.messageTs = '1700000000.000999';
    await bot.redis.set(key, JSON.stringify(stored), 'KEEPTTL');
    const updates = bot.slack.callsTo('chat.update').length;
    expect(await bot.vote(requestId, 'U0ANN')).toContain('1 of 2');
    expect(
      bot.slack
        .callsTo('chat.update')
        .slice(updates)
        .map((c) => c.body.ts),
    ).not.toContain('1700000000.000999');
    // Put back as posted, the placement verifies again and the next vote (a Reject: nothing runs) edits the request's
    // own message.
    const now = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    await bot.redis.set(key, JSON.stringify({ ...now, thread: { ...now.thread, messageTs: own } }), 'KEEPTTL');
    await bot.vote(requestId, 'U0BEN', 'reject');
    await bot.slack.waitFor('the request message edited', () =>
      bot.slack
        .callsTo('chat.update')
        .slice(updates)
        .find((c) => c.body.ts === own),
    );
    expect((await bot.approvals.get(requestId))!.status).toBe('rejected');
    expect(realWrites()).toEqual([]);
  });

  it('an approval request whose `required` is markup: no vote counts (it no longer matches its signature), every reply and render stays inert, and it never runs', async () => {
    const { requestId, ephemeral } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'web', replicas: 0 },
      label: 'Scale shop/web to 0',
      risk: 'r',
    });
    if (!requestId) throw new Error(`not proposed: ${ephemeral?.text}`);
    const key = `{k8s-health:approvals}:approval:${requestId}`;
    const stored = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    (stored as unknown as Any).required = EVIL;
    await bot.redis.set(key, JSON.stringify(stored), 'KEEPTTL');

    const updates = bot.slack.callsTo('chat.update').length;
    // `required` is signed: serve refuses the votes before counting or re-rendering anything.
    const replies = [await bot.vote(requestId, 'U0ANN'), await bot.vote(requestId, 'U0BEN')];
    for (const text of replies) {
      expect(text).toContain('does not match its signature');
      expect(findInjections({ text }, OURS)).toEqual([]);
    }
    const after = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    expect([after.status, after.approvals]).toEqual(['pending', []]);
    expect(bot.slack.callsTo('chat.update').length).toBe(updates);
    // Whatever renders the tampered request (the expiry sweep, a later re-render) shows the field inert.
    const m = renderApproval(after);
    expect(findInjections(m, OURS)).toEqual([]);
    expect(JSON.stringify(m)).toContain('&lt;!channel&gt; lo…');
    expect(realWrites()).toEqual([]);
    expect(
      (bot.kube.find('Deployment', 'web', 'shop') as unknown as { spec: { replicas: number } }).spec.replicas,
    ).toBe(3);
  });
});
