import { describe, expect, it } from '@jest/globals';
import { applyVote } from '../../../src/approvals/vote/apply-vote.js';
import type { ApprovalRequest } from '../../../src/approvals/approval-request.js';
import { hashPlan } from '../../../src/approvals/hash-plan.js';
import { moveRequest } from '../../../src/approvals/move-request.js';

const t0 = new Date('2025-03-01T10:00:00Z');
const plan = {
  action: 'deployment.scale' as const,
  cluster: 'prod',
  params: { namespace: 'k', name: 'd', replicas: 0 },
  label: 'Scale k/d to 0',
  apiCalls: ['PATCH /apis/apps/v1/namespaces/k/deployments/d'],
  preconditions: [{ id: 'replicas-unchanged', text: 'x', recorded: 3 }],
  risk: 'r',
};
const base: ApprovalRequest = {
  id: 'r_1',
  cluster: 'prod',
  plan,
  hash: hashPlan(plan),
  proposer: 'UP',
  createdAt: t0.toISOString(),
  expiresAt: new Date(t0.getTime() + 30 * 60_000).toISOString(),
  required: 2,
  status: 'pending',
  approvals: [],
  dryRun: 'ok',
  thread: { channel: 'C', threadTs: '1.2' },
  transitions: [{ status: 'pending', at: t0.toISOString() }],
};
const at = (min: number) => ({ now: new Date(t0.getTime() + min * 60_000), confirmByTyping: false });
const yes = (user: string) => ({ user, kind: 'approve' as const, authorized: true });

describe('applyVote (the approval state machine, injected clock)', () => {
  it('counts distinct authorized approvers; the second is decisive', () => {
    const one = applyVote(base, yes('U1'), at(1));
    expect(one.outcome).toBe('counted');
    expect(one.request.approvals.map((a) => a.user)).toEqual(['U1']);
    const two = applyVote(one.request, yes('U2'), at(2));
    expect(two.outcome).toBe('approved');
    expect(two.request.status).toBe('approved');
    expect(two.request.transitions.map((x) => x.status)).toEqual(['pending', 'approved']);
  });

  it('needs as many approvals as the executor counts: max(required when proposed, approvals.required now); a `required` that is no number counts as nothing', () => {
    // Config raised to 3 since the proposal: the second vote is not decisive yet.
    const one = applyVote(base, yes('U1'), { ...at(1), required: 3 }).request;
    expect(applyVote(one, yes('U2'), { ...at(2), required: 3 }).outcome).toBe('counted');
    // Config lowered to 1 (allowSinglePerson) since the proposal: the request's own 2 still hold.
    expect(applyVote(base, yes('U1'), { ...at(1), required: 1 }).outcome).toBe('counted');
    // Rewritten in Redis as markup, or as 1: never a single decisive vote while the config says 2.
    for (const required of ['<!channel>', null, 1] as unknown[]) {
      expect(
        applyVote({ ...base, required } as unknown as ApprovalRequest, yes('U1'), { ...at(1), required: 2 }).outcome,
      ).toBe('counted');
    }
  });

  it('never counts the proposer, a double click or an unauthorized user', () => {
    expect(applyVote(base, yes('UP'), at(1))).toEqual({ request: base, outcome: 'self-approval' });
    expect(applyVote(base, { ...yes('UX'), authorized: false }, at(1))).toEqual({
      request: base,
      outcome: 'unauthorized',
    });
    const one = applyVote(base, yes('U1'), at(1)).request;
    expect(applyVote(one, yes('U1'), at(2))).toEqual({ request: one, outcome: 'duplicate' });
  });

  it('an authorized reject cancels; the proposer may withdraw; an unauthorized reject does nothing', () => {
    expect(applyVote(base, { user: 'U1', kind: 'reject', authorized: true }, at(1)).request.status).toBe('rejected');
    expect(applyVote(base, { user: 'UP', kind: 'reject', authorized: false }, at(1)).request.status).toBe('cancelled');
    expect(applyVote(base, { user: 'UX', kind: 'reject', authorized: false }, at(1)).outcome).toBe('unauthorized');
  });

  it('expires at expiresAt exactly, and a decided request ignores every click', () => {
    expect(applyVote(base, yes('U1'), at(29.99)).outcome).toBe('counted');
    const expired = applyVote(base, yes('U1'), at(30));
    expect(expired.outcome).toBe('expired');
    expect(expired.request.status).toBe('expired');
    expect(applyVote(expired.request, yes('U2'), at(31)).outcome).toBe('closed');
  });

  it('with confirmByTyping the decisive approval waits for the typed confirmation', () => {
    const one = applyVote(base, yes('U1'), at(1)).request;
    expect(applyVote(one, yes('U2'), { ...at(2), confirmByTyping: true }).outcome).toBe('needs-confirmation');
    expect(applyVote(one, { ...yes('U2'), confirmed: true }, { ...at(2), confirmByTyping: true }).outcome).toBe(
      'approved',
    );
  });

  it('moveRequest allows only the documented transitions (only one executing)', () => {
    const approved = applyVote(applyVote(base, yes('U1'), at(1)).request, yes('U2'), at(2)).request;
    const executing = moveRequest(approved, 'executing', at(3).now)!;
    expect(executing.status).toBe('executing');
    expect(moveRequest(executing, 'executing', at(3).now)).toBeUndefined();
    expect(moveRequest(base, 'executing', at(3).now)).toBeUndefined();
    expect(moveRequest(executing, 'succeeded', at(4).now, 'done')!.result).toBe('done');
  });

  it('the plan hash covers action, params and preconditions, independent of key order', () => {
    expect(hashPlan({ ...plan, params: { replicas: 0, name: 'd', namespace: 'k' } })).toBe(base.hash);
    expect(hashPlan({ ...plan, preconditions: [{ id: 'replicas-unchanged', text: 'x', recorded: 4 }] })).not.toBe(
      base.hash,
    );
  });

  it('a plan whose dry run failed: no approve counts (not even the would-be decisive one), Reject and withdrawal still work', () => {
    const failed = { ...base, dryRunOk: false };
    expect(applyVote(failed, yes('U1'), at(1))).toEqual({ request: failed, outcome: 'dry-run-failed' });
    const one = applyVote({ ...base, dryRunOk: true }, yes('U1'), at(1)).request;
    expect(applyVote({ ...one, dryRunOk: false }, yes('U2'), at(2)).outcome).toBe('dry-run-failed');
    expect(applyVote(failed, { user: 'U1', kind: 'reject', authorized: true }, at(1)).request.status).toBe('rejected');
    expect(applyVote(failed, { user: 'UP', kind: 'reject', authorized: false }, at(1)).request.status).toBe(
      'cancelled',
    );
  });
});
