import { describe, expect, it } from '@jest/globals';
import { proposeFixActionId } from '../../../src/slack/action-ids.js';
import { eventually } from '../../support/eventually.js';
import { blockActionBody } from '../../support/sign-slack-request.js';
import { startApprovalBot, type ApprovalBot } from '../../support/start-approval-bot.js';
import { scaleWeb, web } from '../../support/web-deployment.js';

/**
 * A fix-button click is planned by the remediation worker, not by the Slack side (a server-side
 * dry run needs the same credential as the write):
 * the clicker is told at once that the plan is being prepared; a double click makes one request; with
 * no worker taking the click, the clicker is told so after the wait and nothing is ever proposed.
 */

async function clickTwice(bot: ApprovalBot, user: string): Promise<string[]> {
  const pid = await bot.proposals.save({
    cluster: 'prod-east',
    findingId: 'test',
    fingerprint: 'fp',
    proposal: scaleWeb,
    createdAt: new Date().toISOString(),
  });
  const urls = [bot.slack.responseUrl(`dbl-a-${user}`), bot.slack.responseUrl(`dbl-b-${user}`)];
  const results = await Promise.all(
    urls.map((url) =>
      bot.post(
        blockActionBody({
          actionId: proposeFixActionId(0),
          value: pid,
          user_id: user,
          response_url: url,
          message_ts: '1700000000.000900',
        }),
      ),
    ),
  );
  expect(results.map((r) => r.status)).toEqual([200, 200]);
  return urls.map((u) => new URL(u).pathname);
}

describe('proposing a fix in the remediation worker', () => {
  it('says "preparing" at once, and a double click (same proposal, clicker, message) makes one request', async () => {
    const bot = await startApprovalBot({ objects: [web] });
    try {
      const paths = await clickTwice(bot, 'U0PAT');
      const preparing = await bot.slack.waitFor(
        'both clicks answered',
        () => {
          const r = bot.slack.responses.filter((x) => paths.includes(x.path));
          return r.length === 2 && r;
        },
        30_000,
      );
      for (const r of preparing)
        expect(r.body).toMatchObject({
          response_type: 'ephemeral',
          text: expect.stringContaining('Preparing the plan for *Scale shop/web to 0*'),
        });
      await bot.slack.waitFor(
        'the request posted',
        () =>
          bot.slack
            .callsTo('chat.postMessage')
            .some((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_')),
        30_000,
      );
      // Both clicks have been handled (the second waited for the first's job): still one request
      // (stored right after its message is posted).
      await eventually(
        () => bot.redis.keys('{k8s-health:approvals}:approval:*'),
        (k) => k.length > 0,
        30_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(await bot.redis.keys('{k8s-health:approvals}:approval:*')).toHaveLength(1);
      expect(
        bot.slack
          .callsTo('chat.postMessage')
          .filter((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_')),
      ).toHaveLength(1);
      expect((await bot.audit.list()).filter((e) => e.event === 'proposed')).toHaveLength(1);
    } finally {
      await bot.stop();
    }
  }, 60_000);

  it('with no remediation worker: the clicker is told after the wait, the job is withdrawn, nothing is proposed or read', async () => {
    const bot = await startApprovalBot({ objects: [web], withoutProposeWorker: true, proposeTimeoutMs: 1500 });
    try {
      const [path] = await clickTwice(bot, 'U0ANN');
      const told = await bot.slack.waitFor(
        'the timeout told',
        () => bot.slack.responses.find((r) => r.path === path && String(r.body.text).startsWith('Not proposed')),
        30_000,
      );
      expect(told.body).toMatchObject({
        response_type: 'ephemeral',
        text: expect.stringContaining('no remediation worker took this click within 2 s'),
      });
      expect(String(told.body.text)).toContain('worker --only remediate');
      expect(await bot.proposeQueue.getJobCounts('waiting', 'active', 'completed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        completed: 0,
        failed: 0,
      });
      expect(await bot.redis.keys('{k8s-health:approvals}:approval:*')).toEqual([]);
      expect(bot.kube.requests).toEqual([]);
    } finally {
      await bot.stop();
    }
  }, 60_000);
});
