import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { CONFIRM_VIEW_ID } from '../../../src/slack/render/render-approval.js';
import { APPROVAL_CLUSTER, useApprovalBot } from '../../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kyverno-admission-controller', namespace: 'kyverno', uid: 'uid-dep' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

const bot = useApprovalBot({ objects: [deployment], confirmByTyping: true });

describe('approvals.confirmByTyping: the final approver types the cluster name in a modal', () => {
  it('opens the modal on the decisive click; a wrong name or a wrong person decides nothing; the right name decides', async () => {
    const { requestId } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'kyverno', name: 'kyverno-admission-controller', replicas: 0 },
      label: 'Scale kyverno/kyverno-admission-controller to 0',
      risk: 'r',
    });
    expect(await bot.vote(requestId!, 'U0ANN')).toContain('1 of 2');

    // The decisive click opens the confirmation modal (views.open with the click's trigger_id) instead of approving.
    expect(await bot.vote(requestId!, 'U0BEN')).toBe('<views.open>');
    const open = bot.slack.callsTo('views.open').at(-1)!;
    expect(open.body.trigger_id).toBe('1.2.4');
    const view = open.body.view as Any;
    expect(view).toMatchObject({ type: 'modal', callback_id: CONFIRM_VIEW_ID, private_metadata: requestId });
    expect(JSON.stringify(view.blocks)).toContain('Scale kyverno/kyverno-admission-controller to 0');
    let req = (await bot.approvals.get(requestId!))!;
    expect(req.status).toBe('pending');
    expect(req.approvals.map((a) => a.user)).toEqual(['U0ANN']);

    // Wrong name: the modal stays open with an error on the input; nothing is recorded.
    const wrong = await bot.submitConfirm(requestId!, 'U0BEN', 'prod-west');
    expect(wrong.status).toBe(200);
    expect(JSON.parse(wrong.body)).toEqual({
      response_action: 'errors',
      errors: { cluster: `Type the cluster name exactly: ${APPROVAL_CLUSTER}` },
    });
    expect((await bot.approvals.get(requestId!))!.status).toBe('pending');

    // The right name typed by someone who may not decide: the submitter is the verified payload's user.
    expect((await bot.submitConfirm(requestId!, 'U0EVE', APPROVAL_CLUSTER)).status).toBe(200);
    expect((await bot.submitConfirm(requestId!, 'U0PAT', APPROVAL_CLUSTER)).status).toBe(200);
    // The modal is acked before the vote is cast: wait until both refusals are audited.
    for (
      let i = 0;
      (await bot.audit.list({ limit: 100 })).filter(
        (e) => e.requestId === requestId && e.event === 'refused' && e.user !== 'U0BEN',
      ).length < 2;
      i++
    ) {
      if (i > 600) throw new Error('the two refused confirmations were never audited');
      await new Promise((r) => setTimeout(r, 50));
    }
    req = (await bot.approvals.get(requestId!))!;
    expect(req.status).toBe('pending');
    expect(req.approvals.map((a) => a.user)).toEqual(['U0ANN']);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);

    // The right name by the final approver decides: approved, executed once.
    const right = await bot.submitConfirm(requestId!, 'U0BEN', ` ${APPROVAL_CLUSTER} `);
    expect(right.status).toBe(200);
    const done = await bot.waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('succeeded');
    expect(done.approvals.map((a) => a.user)).toEqual(['U0ANN', 'U0BEN']);
    expect((bot.kube.find('Deployment', 'kyverno-admission-controller', 'kyverno') as Any).spec.replicas).toBe(0);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toHaveLength(1);

    const trail = (await bot.audit.list({ limit: 100 })).filter((e) => e.requestId === requestId).reverse();
    expect(trail.map((e) => `${e.event}:${e.user ?? ''}:${e.event === 'refused' ? e.detail : ''}`)).toEqual([
      'proposed:U0PAT:',
      'approved:U0ANN:',
      // The decisive click that opened the modal is audited (it decided nothing yet).
      'refused:U0BEN:needs-confirmation',
      'refused:U0EVE:unauthorized',
      'refused:U0PAT:self-approval',
      'approved:U0BEN:',
      'executing::',
      'succeeded::',
    ]);
    expect(trail.find((e) => e.event === 'approved' && e.user === 'U0BEN')!.detail).toContain('(decisive)');
  }, 60_000);
});
