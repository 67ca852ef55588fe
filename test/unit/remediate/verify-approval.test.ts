import { describe, expect, it } from '@jest/globals';
import type { ClusterConfig } from '../../../src/config/config-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { ApprovalRequest, ApprovalVote } from '../../../src/approvals/approval-request.js';
import { hashPlan } from '../../../src/approvals/hash-plan.js';
import { createPlanSigner } from '../../../src/approvals/plan-signer.js';
import { signRequest } from '../../../src/approvals/request/sign-request.js';
import { signVote } from '../../../src/approvals/vote/sign-vote.js';
import { verifyApproval } from '../../../src/approvals/execute/verify-approval.js';
import { testSigner } from '../../support/plan-secret.js';

const signer = testSigner();
const t0 = Date.parse('2025-03-01T10:00:00Z');
const iso = (min: number) => new Date(t0 + min * 60_000).toISOString();
const config = (
  over: Record<string, unknown> = {},
  approvers: Record<string, unknown> = { users: ['U0ANN', 'U0BEN', 'U0PAT'] },
) =>
  parseConfig(
    {
      clusters: [
        { name: 'prod', workload: { kubeconfig: '/k' }, approvers, remediation: { enabled: true } },
        { name: 'demo', dump: './d' },
      ],
      approvals: { required: 2, ...over },
    },
    '/tmp',
  );
const plan = {
  action: 'deployment.scale' as const,
  cluster: 'prod',
  params: { namespace: 'k', name: 'd', replicas: 0 },
  label: 'Scale k/d to 0',
  apiCalls: ['PATCH x'],
  preconditions: [
    { id: 'same-object', text: 't', recorded: 'uid-d' },
    { id: 'replicas-unchanged', text: 't', recorded: 3 },
  ],
  risk: 'r',
};

/** A request proposed at t0 by U0PAT, signed, with sealed approvals by `users` at minutes 1, 2, …. */
function approved(users = ['U0ANN', 'U0BEN'], over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const req: ApprovalRequest = {
    id: 'r_abc',
    cluster: 'prod',
    plan,
    hash: hashPlan(plan),
    proposer: 'U0PAT',
    createdAt: iso(0),
    expiresAt: iso(30),
    required: 2,
    status: 'approved',
    approvals: [],
    dryRun: 'ok',
    dryRunOk: true,
    thread: { channel: 'C', threadTs: '1.2' },
    transitions: [],
    ...over,
  };
  req.signature = signRequest(req, signer);
  req.approvals = users.map((user, i) => signVote(req, { user, at: iso(i + 1) }, signer));
  return req;
}
const byUsers = (users: string[]) => async (_c: ClusterConfig, u: string) => users.includes(u);
const ctx = (over: Partial<Parameters<typeof verifyApproval>[1]> = {}) => ({
  config: config(),
  signer,
  now: new Date(t0 + 3 * 60_000),
  isAuthorized: byUsers(['U0ANN', 'U0BEN', 'U0PAT', 'U0CAT']),
  ...over,
});

describe('verifyApproval: the executor re-derives "may run" from signatures, never from status', () => {
  it('a legitimately proposed and approved request passes', async () => {
    expect(await verifyApproval(approved(), ctx())).toEqual([]);
  });

  it('refuses without a usable secret, naming K8S_HEALTH_PLAN_SECRET', async () => {
    expect(await verifyApproval(approved(), ctx({ signer: createPlanSigner(undefined) }))).toEqual([
      expect.stringContaining('K8S_HEALTH_PLAN_SECRET is not set'),
    ]);
  });

  it('refuses a request whose signed fields were changed: params, cluster, proposer, expiry, required, dry run', async () => {
    const base = approved();
    const swapped: [string, ApprovalRequest][] = [
      [
        'params',
        {
          ...base,
          plan: { ...plan, params: { ...plan.params, name: 'other' } },
          hash: hashPlan({ ...plan, params: { ...plan.params, name: 'other' } }),
        },
      ],
      ['cluster', { ...base, cluster: 'demo' }],
      ['proposer', { ...base, proposer: 'U0EVE' }],
      ['expiry', { ...base, expiresAt: iso(600) }],
      ['required', { ...base, required: 1 }],
      ['dry run', { ...base, dryRunOk: true, signature: approved([], { dryRunOk: false }).signature }],
      ['no signature', { ...base, signature: undefined }],
      [
        'another secret',
        { ...base, signature: signRequest(base, createPlanSigner('another-secret-another-secret-another')) },
      ],
    ];
    for (const [what, req] of swapped) {
      const problems = await verifyApproval(req, ctx());
      expect({ what, refused: problems.some((p) => /plan signature|no plan signature/.test(p)) }).toEqual({
        what,
        refused: true,
      });
    }
  });

  it('refuses forged votes: no seal, a seal copied from another request or user, a changed time', async () => {
    const base = approved(['U0ANN']);
    const other = approved(['U0BEN'], { id: 'r_other' });
    const forged: ApprovalVote[][] = [
      [...base.approvals, { user: 'U0BEN', at: iso(2) }],
      [...base.approvals, other.approvals[0]!],
      [...base.approvals, { ...base.approvals[0]!, user: 'U0BEN' }],
      [{ ...base.approvals[0]!, at: iso(1.5) }, signVote(base, { user: 'U0BEN', at: iso(2) }, signer)],
    ];
    for (const approvals of forged) {
      const problems = await verifyApproval({ ...base, approvals }, ctx());
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/has no valid seal/),
          expect.stringMatching(/1 valid approval\(s\), 2 required/),
        ]),
      );
    }
  });

  it('counts only distinct approvers who are not the proposer, voted in time, and are approvers under the CURRENT config', async () => {
    expect(await verifyApproval(approved(['U0ANN', 'U0ANN']), ctx())).toEqual(
      expect.arrayContaining(['U0ANN voted twice: approvers must be distinct', '1 valid approval(s), 2 required']),
    );
    expect(await verifyApproval(approved(['U0ANN', 'U0PAT']), ctx())).toEqual(
      expect.arrayContaining([expect.stringContaining('U0PAT proposed this fix'), '1 valid approval(s), 2 required']),
    );
    // U0BEN was removed from the approvers after voting.
    expect(await verifyApproval(approved(), ctx({ isAuthorized: byUsers(['U0ANN']) }))).toEqual([
      'U0BEN is not an approver of cluster prod in the current config',
      '1 valid approval(s), 2 required',
    ]);
    // A vote sealed after the request expired (the bot would never record one; a leaked secret could).
    const late = approved(['U0ANN']);
    late.approvals.push(signVote(late, { user: 'U0BEN', at: iso(31) }, signer));
    expect(await verifyApproval(late, ctx({ now: new Date(t0 + 32 * 60_000) }))).toEqual(
      expect.arrayContaining([expect.stringContaining("outside the request's lifetime")]),
    );
  });

  it('uses the stricter of the signed and the current required count', async () => {
    expect(await verifyApproval(approved(), ctx({ config: config({ required: 3 }) }))).toEqual([
      '2 valid approval(s), 3 required',
    ]);
    expect(
      await verifyApproval(
        approved(['U0ANN', 'U0BEN', 'U0CAT'], { required: 3 }),
        ctx({ config: config({ required: 2 }) }),
      ),
    ).toEqual([]);
  });

  it('refuses a cluster no longer configured, now dump-backed, or with remediation turned off', async () => {
    const off = parseConfig(
      {
        clusters: [{ name: 'prod', workload: { kubeconfig: '/k' }, remediation: { enabled: false } }],
        approvals: { required: 2 },
      },
      '/tmp',
    );
    expect(await verifyApproval(approved(), ctx({ config: off }))).toEqual(
      expect.arrayContaining(['remediation is not enabled for cluster prod in the current config']),
    );
    const gone = parseConfig({ clusters: [], approvals: { required: 2 } }, '/tmp');
    expect(await verifyApproval(approved(), ctx({ config: gone }))).toEqual(
      expect.arrayContaining(['cluster prod is not a live cluster in the current config']),
    );
  });

  it('enforces the execution deadline from the decisive vote (default 10 minutes)', async () => {
    const req = approved();
    expect(await verifyApproval(req, ctx({ now: new Date(t0 + 12 * 60_000) }))).toEqual([]);
    const problems = await verifyApproval(req, ctx({ now: new Date(t0 + 12 * 60_000 + 1) }));
    expect(problems).toEqual([
      `the execution deadline passed: approved at ${iso(2)}, it had to start by ${iso(12)} (approvals.executionDeadlineMinutes 10)`,
    ]);
    expect(
      await verifyApproval(
        req,
        ctx({ config: config({ executionDeadlineMinutes: 60 }), now: new Date(t0 + 50 * 60_000) }),
      ),
    ).toEqual([]);
  });

  it('refuses a plan whose dry run failed, and with confirmByTyping an unconfirmed decisive vote', async () => {
    expect(await verifyApproval(approved(['U0ANN', 'U0BEN'], { dryRunOk: false }), ctx())).toEqual([
      'the dry run of this plan did not pass: it cannot be approved',
    ]);
    expect(await verifyApproval(approved(), ctx({ config: config({ confirmByTyping: true }) }))).toEqual([
      'the decisive vote (U0BEN) was not confirmed by typing the cluster name (approvals.confirmByTyping)',
    ]);
    const confirmed = approved(['U0ANN']);
    confirmed.approvals.push(signVote(confirmed, { user: 'U0BEN', at: iso(2), confirmed: true }, signer));
    expect(await verifyApproval(confirmed, ctx({ config: config({ confirmByTyping: true }) }))).toEqual([]);
    // The confirmation is sealed: setting it afterwards breaks the vote's seal.
    const flipped = approved();
    flipped.approvals[1] = { ...flipped.approvals[1]!, confirmed: true };
    expect(await verifyApproval(flipped, ctx({ config: config({ confirmByTyping: true }) }))).toEqual(
      expect.arrayContaining([
        'the vote of U0BEN has no valid seal (not recorded by a bot process holding the secret)',
      ]),
    );
  });
});
