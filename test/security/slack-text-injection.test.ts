import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import type { Report } from '../../src/report/report.js';
import { DETAILS_ACTION_ID, proposeFixActionId } from '../../src/slack/action-ids.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { createReportStore } from '../../src/store/report-store.js';
import { HOSTILE_ALL, HOSTILE_TEXTS } from '../support/hostile-text.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';
import { blockActionBody, slashCommandBody } from '../support/sign-slack-request.js';
import { APPROVAL_CHANNEL, APPROVAL_CLUSTER, useApprovalBot } from '../support/start-approval-bot.js';

/**
 * End to end: hostile text from the cluster (a stored report's findings, an API
 * server's error body on a dry run and on a read, a proposal's label) through the real Bolt receiver
 * (signed requests) to what the fake Slack API received: the posted answer, the approval request in
 * the thread, and the ephemeral replies. Nothing that was posted may mention, link, restyle or add
 * a line; and nothing was written to the cluster.
 */

const app = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'apps', uid: `uid-${name}` },
    spec: { replicas: 3 },
  }) as KubeObject;
const OURS = { mentions: ['U0ALICE', 'U0PAT', 'U0ANN', 'U0BEN'] };

const bot = useApprovalBot({ objects: [app('app-a')] });

function hostileFinding(h: string, i: number): Finding {
  return {
    id: 'webhook.unavailable-blocking',
    severity: 'critical',
    section: 'webhooks',
    title: h,
    subject: { kind: 'ValidatingWebhookConfiguration', name: h },
    evidence: [h, HOSTILE_ALL],
    cause: h,
    missing: [h],
    confidence: 'medium',
    remediations: [
      { action: 'deployment.scale', params: { namespace: 'apps', name: 'app-a', replicas: 0 }, label: h, risk: h },
    ],
    fingerprint: `fp-${i}`,
  };
}

describe('hostile cluster text through the real receiver into Slack', () => {
  it('/k8s-health answers from a report full of hostile text: every posted block inert, buttons carry only ids', async () => {
    const now = new Date().toISOString();
    const report: Report = {
      cluster: APPROVAL_CLUSTER,
      generatedAt: now,
      collectedAt: now,
      status: 'critical',
      sections: [{ id: 'webhooks', status: 'critical', summary: HOSTILE_TEXTS[0]! }],
      findings: HOSTILE_TEXTS.slice(0, 5).map(hostileFinding),
      partial: [{ source: 'etcd', error: HOSTILE_ALL }],
    };
    await createReportStore(bot.redis, { keyPrefix: REDIS_PREFIX }).save(report);
    const before = bot.slack.callsTo('chat.postMessage').length;
    const r = await bot.post(
      slashCommandBody({
        text: APPROVAL_CLUSTER,
        channel_id: APPROVAL_CHANNEL,
        user_id: 'U0ALICE',
        response_url: bot.slack.responseUrl('cmd'),
      }),
    );
    expect(r.status).toBe(200);
    const posted = await bot.slack.waitFor('the answer', () => bot.slack.callsTo('chat.postMessage')[before]);
    expect(findInjections(posted.body, OURS)).toEqual([]);
    // The first root cause says since when on its headline's line; its (hostile) cause is its title here, said once.
    expect(linesOf(posted.body).filter((l) => l.includes(' · since: unknown'))).not.toEqual([]);
    expect(linesOf(posted.body).filter((l) => /^:[a-z_]+: \*HOSTILE-0 /.test(l))).toHaveLength(1);
    expect(JSON.stringify(posted.body.blocks)).toContain('asked by <@U0ALICE>');
    // Fix buttons carry only an opaque proposal id; the Details button only the cluster asked about (our config's
    // name).
    for (const b of posted.body.blocks as {
      type: string;
      elements?: { action_id?: string; value?: string }[];
      accessory?: { action_id?: string; value?: string };
    }[]) {
      for (const e of [...(b.type === 'actions' ? (b.elements ?? []) : []), ...(b.accessory ? [b.accessory] : [])])
        expect(e.value).toMatch(
          e.action_id === DETAILS_ACTION_ID ? new RegExp(`^${APPROVAL_CLUSTER}$`) : /^p_[A-Za-z0-9_-]+$/,
        );
    }
    expect(bot.kube.writes).toEqual([]);
  });

  it('an approval request with a hostile label and risk, re-rendered on a vote', async () => {
    const { requestId, message } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'apps', name: 'app-a', replicas: 0 },
      label: HOSTILE_TEXTS[4]!,
      risk: HOSTILE_TEXTS[9]!,
    });
    expect(requestId).toMatch(/^r_/);
    expect(findInjections(message!.body, OURS)).toEqual([]);
    expect(JSON.stringify(message!.body.blocks)).toContain('Proposed by <@U0PAT>');
    const updates = bot.slack.callsTo('chat.update').length;
    expect(await bot.vote(requestId!, 'U0ANN')).toBe('Your approval is counted: 1 of 2.');
    const update = await bot.slack.waitFor('the request re-rendered', () => bot.slack.callsTo('chat.update')[updates]);
    expect(JSON.stringify(update.body.blocks)).toContain('1 of 2 approvals: <@U0ANN>');
    expect(findInjections(update.body, OURS)).toEqual([]);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });

  it('an approval request whose dry run fails with a hostile API error body', async () => {
    bot.kube.fail({
      method: 'PATCH',
      pathPrefix: '/apis/apps/v1/namespaces/apps/deployments/app-a',
      status: 422,
      times: 1,
      body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 422, message: HOSTILE_ALL },
    });
    const before = bot.slack.callsTo('chat.postMessage').length;
    // Another fix than the request above (one pending request per fix): replicas 1.
    // Clicked directly (not bot.propose): whether such a request offers Approve at all is not this test's business.
    const pid = await createProposalStore(bot.redis, { keyPrefix: REDIS_PREFIX }).save({
      cluster: APPROVAL_CLUSTER,
      findingId: 'x',
      fingerprint: 'fp',
      proposal: {
        action: 'deployment.scale',
        params: { namespace: 'apps', name: 'app-a', replicas: 1 },
        label: 'Scale apps/app-a to 1',
        risk: 'r',
      },
      createdAt: new Date().toISOString(),
    });
    expect(
      (
        await bot.post(
          blockActionBody({
            actionId: proposeFixActionId(0),
            value: pid,
            user_id: 'U0PAT',
            response_url: bot.slack.responseUrl('dry-fail'),
          }),
        )
      ).status,
    ).toBe(200);
    const posted = await bot.slack.waitFor('the request message', () => bot.slack.callsTo('chat.postMessage')[before]);
    expect(findInjections(posted.body, OURS)).toEqual([]);
    const dryRunLine = linesOf(posted.body).find((l) => l.startsWith('*Dry run:*'));
    expect(dryRunLine).toMatch(/^\*Dry run:\* .*HTTP 422 \(HOSTILE-ALL /);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });

  it('a proposal that cannot be planned: the hostile read error and label come back ephemerally, inert', async () => {
    bot.kube.fail({
      method: 'GET',
      pathPrefix: '/apis/apps/v1/namespaces/apps/deployments/app-a',
      status: 500,
      times: 1,
      body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500, message: HOSTILE_ALL },
    });
    // Another fix than the requests above (one pending request per fix): replicas 2.
    const { requestId, ephemeral } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'apps', name: 'app-a', replicas: 2 },
      label: HOSTILE_TEXTS[1]!,
      risk: 'r',
    });
    expect(requestId).toBeUndefined();
    expect(ephemeral!.text).toMatch(/^Cannot propose \*HOSTILE-1 /);
    expect(ephemeral!.text).toContain('HOSTILE-ALL');
    expect(findInjections(ephemeral!, OURS)).toEqual([]);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });
});
