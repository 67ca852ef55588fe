import { describe, expect, it } from '@jest/globals';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { useApprovalBot } from '../support/start-approval-bot.js';
import { scaleWeb, web } from '../support/web-deployment.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

/**
 * Attack: approving a plan whose server-side dry run failed. The request shows the
 * failure and offers only Reject; an Approve click forged for it anyway (correctly signed by Slack, as
 * a stale client or a crafted payload would send) is refused by the policy and audited; and flipping
 * the dry-run flag in Redis does not help, because the flag is covered by the plan signature.
 * Nothing is written to the cluster.
 */
const PATH = '/apis/apps/v1/namespaces/shop/deployments/web';

const bot = useApprovalBot({ objects: [web] });

/** Propose while the API server refuses the dry-run PATCH (e.g. RBAC, an admission webhook). */
async function proposeWithFailingDryRun(): Promise<{ id: string; message: Any }> {
  bot.kube.fail({ method: 'PATCH', path: PATH, status: 403, times: 1 });
  const { requestId, message } = await bot.propose(scaleWeb);
  return { id: requestId!, message: message! };
}
const realWrites = () => bot.kube.writes.filter((w) => !w.dryRun).length;

describe('a plan whose dry run failed cannot be approved', () => {
  it('shows the failure and only Reject; forged Approve clicks are refused and audited; Reject still cancels', async () => {
    const { id, message } = await proposeWithFailingDryRun();
    const blocks = message.body.blocks as Any[];
    const text = JSON.stringify(blocks);
    expect(text).toContain(
      ':x: dry run failed: cannot PATCH /apis/apps/v1/namespaces/shop/deployments/web (dry run): forbidden',
    );
    expect(text).toContain('The dry run failed, so this plan cannot be approved');
    expect(blocks.find((b) => b.type === 'actions')!.elements.map((e: Any) => e.action_id)).toEqual([
      'k8s-health.approval.reject',
    ]);
    expect((await bot.approvals.get(id))!.dryRunOk).toBe(false);

    for (const user of ['U0ANN', 'U0BEN'])
      expect(await bot.vote(id, user)).toBe(
        'The dry run of this plan failed: it cannot be approved. Fix the cause and propose it again (Reject still cancels it).',
      );
    const req = (await bot.approvals.get(id))!;
    expect(req.status).toBe('pending');
    expect(req.approvals).toEqual([]);
    const refused = (await bot.audit.list({ limit: 100 })).filter((e) => e.requestId === id && e.event === 'refused');
    expect(refused.map((e) => `${e.user} ${e.detail}`).sort()).toEqual([
      'U0ANN dry-run-failed',
      'U0BEN dry-run-failed',
    ]);

    expect(await bot.vote(id, 'U0ANN', 'reject')).toContain('rejected');
    expect((await bot.approvals.get(id))!.status).toBe('rejected');
    expect(realWrites()).toBe(0);
  });

  it('the dry-run flag flipped in Redis: no vote counts (the flag is signed), nothing runs', async () => {
    const { id } = await proposeWithFailingDryRun();
    const key = `{k8s-health:approvals}:approval:${id}`;
    for (let i = 0; i < 500 && !(await bot.redis.get(key)); i++) await new Promise((r) => setTimeout(r, 10));
    const r = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    r.dryRunOk = true;
    r.dryRun = 'server-side dry run (dryRun=All) accepted';
    await bot.redis.set(key, JSON.stringify(r), 'KEEPTTL');
    for (const user of ['U0ANN', 'U0BEN']) expect(await bot.vote(id, user)).toContain('does not match its signature');
    const stored = JSON.parse((await bot.redis.get(key))!) as ApprovalRequest;
    expect([stored.status, stored.approvals]).toEqual(['pending', []]);
    expect(realWrites()).toBe(0);
    expect((bot.kube.find('Deployment', 'web', 'shop') as Any).spec.replicas).toBe(3);
  });
});
