import { describe, expect, it } from '@jest/globals';
import type { ApprovalRequest, ApprovalStatus } from '../../src/approvals/approval-request.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID, renderApproval } from '../../src/slack/render/render-approval.js';
import { blastRadiusLine, describeBlastRadius } from '../../src/slack/render/describe-blast-radius.js';
import { ACTION_IDS } from '../../src/diagnose/finding.js';
import { UNDO_OF } from '../../src/slack/render/describe-undo.js';
import { findInjections, linesOf } from '../support/inspect-slack-text.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

const T0 = '2025-03-01T10:00:00.000Z';

function request(status: ApprovalStatus, over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const decided = status === 'rejected' || status === 'cancelled';
  const approvals = ['pending', 'rejected', 'cancelled', 'expired'].includes(status)
    ? [{ user: 'U0ANN', at: '2025-03-01T10:02:00.000Z' }]
    : [
        { user: 'U0ANN', at: '2025-03-01T10:02:00.000Z' },
        { user: 'U0BEN', at: '2025-03-01T10:03:00.000Z' },
      ];
  return {
    id: 'r_abc123',
    cluster: 'prod-east',
    plan: {
      action: 'webhook.suspend',
      cluster: 'prod-east',
      params: { kind: 'Validating', name: 'kyverno-cfg' },
      label: 'Suspend webhook kyverno-cfg',
      apiCalls: [
        'GET /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-cfg (full backup, stored before the delete)',
        'DELETE /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-cfg (preconditions: uid u1, resourceVersion 7)',
      ],
      preconditions: [{ id: 'rv', text: 'the configuration is unchanged', recorded: '7' }],
      risk: 'policies are not enforced while suspended',
    },
    hash: '0123456789abcdef0123',
    proposer: 'U0PAT',
    createdAt: T0,
    expiresAt: '2025-03-01T10:30:00.000Z',
    required: 2,
    approvers: { users: ['U0ANN', 'U0BEN'], groups: ['S0SRE'] },
    status,
    approvals,
    ...(decided
      ? { decidedBy: { user: status === 'cancelled' ? 'U0PAT' : 'U0BEN', at: '2025-03-01T10:04:00.000Z' } }
      : {}),
    dryRun: 'server-side dry run passed (dryRun=All)',
    dryRunOk: true,
    thread: { channel: 'C0INCIDENT', threadTs: '1.1', messageTs: '1.2' },
    ...(['succeeded', 'failed', 'aborted', 'interrupted'].includes(status)
      ? { result: `${status}: see the thread` }
      : {}),
    transitions: [
      { status: 'pending', at: T0 },
      ...(status === 'pending' ? [] : [{ status, at: '2025-03-01T10:05:00.000Z' }]),
    ],
    ...over,
  };
}

const buttonsOf = (blocks: AnyBlock[]) =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements as AnyBlock[]);

describe('the approval message: header, colour and buttons follow the state', () => {
  it.each<[ApprovalStatus, string, string[]]>([
    ['pending', ':large_yellow_circle: Waiting for 1 more of 2 approvals', ['Approve', 'Reject']],
    ['approved', ':large_green_circle: Approved: queued to run', []],
    ['executing', ':large_blue_circle: Running', []],
    ['succeeded', ':large_green_circle: Executed', []],
    ['failed', ':red_circle: Failed', []],
    ['aborted', ':red_circle: Aborted before any change', []],
    ['interrupted', ':large_orange_circle: Interrupted', []],
    ['rejected', ':red_circle: Rejected', []],
    ['cancelled', ':white_circle: Cancelled by the proposer', []],
    ['expired', ':white_circle: Expired', []],
  ])('%s: "%s", buttons %j', (status, header, buttons) => {
    const m = renderApproval(request(status));
    const b = m.blocks as AnyBlock[];
    expect(b[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: header, emoji: true } });
    expect(buttonsOf(b).map((x) => x.text.text)).toEqual(buttons);
    // State and buttons at the top: the buttons (if any) come right after the header.
    if (buttons.length > 0) expect(b[1]!.type).toBe('actions');
    expect(m.text).toContain(header.replace(/^:[a-z_]+: /, ''));
    // Edited on every transition: absolute times only.
    expect(JSON.stringify(b)).toContain('<!date^1740823200^{date_short_pretty} {time}|2025-03-01 10:00 UTC>');
    expect(JSON.stringify(b)).not.toMatch(/ ago\b/);
    expect(findInjections(m, { mentions: ['U0PAT', 'U0ANN', 'U0BEN'], groups: ['S0SRE'] })).toEqual([]);
  });

  it('Approve is primary and Reject danger, each behind a confirm dialog; values are the request id only', () => {
    const [approve, reject] = buttonsOf(renderApproval(request('pending')).blocks as AnyBlock[]);
    expect(approve).toMatchObject({
      action_id: APPROVE_ACTION_ID,
      style: 'primary',
      value: 'r_abc123',
      confirm: { title: { text: 'Approve this fix?' }, confirm: { text: 'Approve' }, deny: { text: 'Cancel' } },
    });
    expect(reject).toMatchObject({
      action_id: REJECT_ACTION_ID,
      style: 'danger',
      value: 'r_abc123',
      confirm: { title: { text: 'Reject this fix?' }, style: 'danger' },
    });
    expect(approve!.confirm.text.text).toBe(
      'Suspend webhook kyverno-cfg on prod-east. One more approval is needed: if you are not its proposer, yours is it, and it runs once its preconditions are re-checked live.',
    );
    const first = buttonsOf(renderApproval(request('pending', { approvals: [] })).blocks as AnyBlock[])[0]!;
    expect(first.confirm.text.text).toBe(
      'Suspend webhook kyverno-cfg on prod-east. It needs 2 more approvals from people other than its proposer before it runs.',
    );
  });

  it('a failed dry run: a red header, no Approve, Reject only, and why', () => {
    const m = renderApproval(request('pending', { dryRunOk: false, dryRun: ':x: dry run failed: forbidden' }));
    const b = m.blocks as AnyBlock[];
    expect(b[0]!.text.text).toBe(':red_circle: Dry run failed: cannot be approved');
    expect(buttonsOf(b).map((x) => x.action_id)).toEqual([REJECT_ACTION_ID]);
    expect(JSON.stringify(b)).toContain('The dry run failed, so this plan cannot be approved');
  });

  it('names who may approve, who approved, who proposed, the dry run, the blast radius and the undo', () => {
    const lines = linesOf(renderApproval(request('pending')));
    expect(lines).toEqual(
      expect.arrayContaining([
        '*Suspend webhook kyverno-cfg* on *prod-east*',
        '*Approvals:* 1 of 2 approvals: <@U0ANN>',
        '*Who may approve:* <@U0ANN>, <@U0BEN>, <!subteam^S0SRE> (not its proposer)',
        'Proposed by <@U0PAT> <!date^1740823200^{date_short_pretty} {time}|2025-03-01 10:00 UTC> · expires <!date^1740825000^{date_short_pretty} {time}|2025-03-01 10:30 UTC>',
        '*Dry run:* server-side dry run passed (dryRun=All)',
        '*Blast radius:* 1 object cluster-scoped: validatingwebhookconfigurations kyverno-cfg',
        `*Undo:* ${UNDO_OF['webhook.suspend']}`,
      ]),
    );
    // A decided request no longer lists who may approve; it says who decided, and when.
    const rejected = linesOf(renderApproval(request('rejected')));
    expect(rejected.some((l) => l.startsWith('*Who may approve:*'))).toBe(false);
    expect(rejected).toContain(
      'Decided by <@U0BEN> <!date^1740823440^{date_short_pretty} {time}|2025-03-01 10:04 UTC>',
    );
    // A request stored by an older version carries no approvers: it says where they come from.
    expect(linesOf(renderApproval(request('pending', { approvers: undefined })))).toContain(
      '*Who may approve:* the approvers configured for this cluster, other than its proposer',
    );
    // The proposer is never listed as a possible approver, even when the config names them.
    const own = linesOf(renderApproval(request('pending', { approvers: { users: ['U0PAT', 'U0ANN'], groups: [] } })));
    expect(own).toContain('*Who may approve:* <@U0ANN>');
  });

  it('terminal outcomes say what happened and when', () => {
    expect(linesOf(renderApproval(request('failed')))).toContain(
      '*Outcome:* failed: see the thread (<!date^1740823500^{date_short_pretty} {time}|2025-03-01 10:05 UTC>)',
    );
  });
});

describe('blast radius and undo', () => {
  it('counts each written object once, with its namespace; reads do not count; etcd is the cluster', () => {
    expect(
      describeBlastRadius({
        apiCalls: [
          'GET /apis/apps/v1/namespaces/kube-system/deployments/coredns',
          'PATCH /apis/apps/v1/namespaces/kube-system/deployments/coredns (merge patch spec.replicas=0)',
        ],
      }),
    ).toEqual({ objects: ['deployments kube-system/coredns'], namespaces: ['kube-system'], clusterScoped: false });
    expect(blastRadiusLine(describeBlastRadius({ apiCalls: ['PATCH /api/v1/nodes/w1 (json-patch)'] }))).toBe(
      '1 object cluster-scoped: nodes w1',
    );
    expect(
      blastRadiusLine(
        describeBlastRadius({
          apiCalls: [
            'POST /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations (the backup of request r_1)',
          ],
        }),
      ),
    ).toBe('1 object cluster-scoped: a new object in validatingwebhookconfigurations');
    expect(
      blastRadiusLine(
        describeBlastRadius({
          apiCalls: ["etcd Cluster.MemberRemove { ID: 1f } sent to the current leader's endpoint"],
        }),
      ),
    ).toBe("1 object cluster-scoped: the etcd cluster's membership");
    expect(blastRadiusLine(describeBlastRadius({ apiCalls: [] }))).toBe('nothing is written');
  });

  it('every catalog action states its undo', () => {
    for (const a of ACTION_IDS) expect([a, typeof UNDO_OF[a]]).toEqual([a, 'string']);
  });
});
