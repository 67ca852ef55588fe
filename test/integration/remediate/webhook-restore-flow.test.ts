import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { findAction } from '../../../src/approvals/actions/index.js';
import { sendKube } from '../../../src/approvals/execute/send-kube.js';
import { createTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { isGranted, rbacOfRequest } from '../../support/rbac-of-request.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const NAME = 'kyverno-resource-validating-webhook-cfg';
const COLLECTION = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
/** As the API server serves it: server-set identity (uid, resourceVersion, generation, managedFields) included. */
const webhook: KubeObject = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: {
    name: NAME,
    uid: 'uid-kyverno',
    generation: 3,
    creationTimestamp: '2025-01-01T00:00:00Z',
    labels: { 'app.kubernetes.io/instance': 'kyverno' },
    annotations: { 'policies.kyverno.io/owner': 'platform' },
    managedFields: [{ manager: 'kyverno', operation: 'Apply' }],
  },
  webhooks: [
    {
      name: 'validate.kyverno.svc',
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      clientConfig: { service: { namespace: 'kyverno', name: 'kyverno-svc', path: '/validate' } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    },
  ],
} as unknown as KubeObject;

const SERVER_SET = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields'];
/** The object without what the API server sets itself. */
function withoutServerSet(o: Any): Any {
  return { ...o, metadata: Object.fromEntries(Object.entries(o.metadata).filter(([k]) => !SERVER_SET.includes(k))) };
}

const bot = useApprovalBot({ objects: [webhook] });

describe('the fake API server creates objects (POST to the collection)', () => {
  it('validates a dry run without storing it, stores a create with server-set metadata, refuses a duplicate and a resourceVersion', async () => {
    const kc = createTestKubeConfig(bot.kube.url);
    const body = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'probe-webhook' },
      webhooks: [],
    };
    const dry = await sendKube(kc, { method: 'POST', path: COLLECTION, query: { dryRun: 'All' }, body });
    expect(dry.metadata.name).toBe('probe-webhook');
    expect(bot.kube.find('ValidatingWebhookConfiguration', 'probe-webhook')).toBeUndefined();
    const created = await sendKube(kc, { method: 'POST', path: COLLECTION, body });
    expect(created.metadata).toEqual(
      expect.objectContaining({
        name: 'probe-webhook',
        uid: expect.any(String),
        resourceVersion: expect.any(String),
        creationTimestamp: expect.any(String),
        generation: 1,
      }),
    );
    expect(bot.kube.find('ValidatingWebhookConfiguration', 'probe-webhook')!.metadata.uid).toBe(created.metadata.uid);
    await expect(sendKube(kc, { method: 'POST', path: COLLECTION, body })).rejects.toMatchObject({ status: 409 });
    const raw = await fetch(`${bot.kube.url}${COLLECTION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(raw.status).toBe(409);
    expect(await raw.json()).toMatchObject({
      kind: 'Status',
      reason: 'AlreadyExists',
      code: 409,
      message: `validatingwebhookconfigurations.admissionregistration.k8s.io "probe-webhook" already exists`,
    });
    await expect(
      sendKube(kc, {
        method: 'POST',
        path: COLLECTION,
        body: { ...body, metadata: { name: 'other', resourceVersion: '5' } },
      }),
    ).rejects.toThrow(/resourceVersion should not be set/);
    expect(bot.kube.writes.filter((w) => w.method === 'POST').map((w) => `${w.name} dry=${w.dryRun}`)).toEqual([
      'probe-webhook dry=true',
      'probe-webhook dry=false',
      'probe-webhook dry=false',
      'probe-webhook dry=false',
      'other dry=false',
    ]);
    bot.kube.emit('DELETED', created);
    bot.kube.writes.splice(0);
  });
});

describe('webhook.suspend, then webhook.restore from the backup, both through two approvals', () => {
  let suspendId = '';
  let undoProposal = '';

  it('suspends: backs the full object up in Redis and the thread, deletes it, offers Restore', async () => {
    const before = bot.kube.find('ValidatingWebhookConfiguration', NAME)!;
    const { requestId, request } = await bot.runApproved({
      action: 'webhook.suspend',
      params: { kind: 'Validating', name: NAME },
      label: `Suspend webhook ${NAME}`,
      risk: 'r',
    });
    suspendId = requestId;
    expect(request.status).toBe('succeeded');
    expect(bot.kube.find('ValidatingWebhookConfiguration', NAME)).toBeUndefined();
    expect((await bot.backups.load(requestId))!.object).toEqual(before);
    const result = await bot.resultMessage(requestId);
    const undo = (result.body.blocks as Any[]).find((b) => b.type === 'actions')!;
    expect(undo.elements[0].text.text).toBe(`Restore webhook ${NAME}`);
    undoProposal = undo.elements[0].value;
    expect(undoProposal).toMatch(/^p_/);
    // The suspension is remembered as in place until its undo runs, with the webhook's backend service.
    expect((await bot.inPlace.list(request.cluster)).map((c) => [c.requestId, c.undo.proposalId, c.backend])).toEqual([
      [requestId, undoProposal, { namespace: 'kyverno', name: 'kyverno-svc' }],
    ]);
  }, 60_000);

  it('restores exactly the backed-up object minus server-set metadata, dry run (POST dryRun=All) first', async () => {
    bot.kube.writes.splice(0);
    const { requestId, message } = await bot.clickProposal(undoProposal);
    expect(requestId).toMatch(/^r_/);
    const text = JSON.stringify(message!.body.blocks);
    // Its backend has no Endpoints at all: the risk the approvers read says restoring it blocks again.
    expect(text).toContain(
      'Its backend is still down: service kyverno/kyverno-svc has no ready endpoints now, so restoring it blocks those requests again.',
    );
    expect(text).toContain(`POST ${COLLECTION} (the backup of request ${suspendId})`);
    expect(text).toContain(`server-side dry run (dryRun=All) accepted: POST ${COLLECTION}`);
    expect(bot.kube.writes.map((w) => `${w.method} dry=${w.dryRun}`)).toEqual(['POST dry=true']);
    expect(bot.kube.find('ValidatingWebhookConfiguration', NAME)).toBeUndefined();

    await bot.vote(requestId!, 'U0ANN');
    expect(await bot.vote(requestId!, 'U0BEN')).toContain('last one needed');
    const done = await bot.waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.result).toContain(`re-created from the backup of request ${suspendId}`);
    expect(done.status).toBe('succeeded');
    expect(bot.kube.writes.map((w) => `${w.method} dry=${w.dryRun}`)).toEqual(['POST dry=true', 'POST dry=false']);

    const backup = (await bot.backups.load(suspendId))!.object as Any;
    // What was sent carries none of the old server-set identity …
    const sent = bot.kube.writes[1]!.body as Any;
    for (const k of SERVER_SET) expect(sent.metadata).not.toHaveProperty(k);
    expect(sent).toEqual(withoutServerSet(backup));
    // … and the restored object is the backup again, with a new identity set by the server.
    const restored = bot.kube.find('ValidatingWebhookConfiguration', NAME) as Any;
    expect(withoutServerSet(restored)).toEqual(withoutServerSet(backup));
    expect(restored.metadata.uid).not.toBe('uid-kyverno');
    // Undone: no longer in place.
    expect(await bot.inPlace.list(done.cluster)).toEqual([]);
  }, 60_000);

  it('a second restore is refused: the dry run answers 409 AlreadyExists, so it offers no Approve and approve votes are refused', async () => {
    bot.kube.writes.splice(0);
    // The undo button that ran proposes nothing again: it says the fix already ran.
    const again = await bot.clickProposal(undoProposal);
    expect(again.ephemeral!.text).toMatch(/already ran <!date\^/);
    // The same restore offered afresh (a new proposal, after the run) reaches the dry run, which refuses it.
    const stored = (await bot.proposals.get(undoProposal))!;
    const fresh = await bot.proposals.save({ ...stored, createdAt: new Date(Date.now() + 1000).toISOString() });
    // The backend is back meanwhile (a ready address): the risk no longer says it is down.
    bot.kube.emit('ADDED', {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { namespace: 'kyverno', name: 'kyverno-svc' },
      subsets: [{ addresses: [{ ip: '10.0.0.7' }], ports: [{ port: 9443 }] }],
    } as unknown as KubeObject);
    const { requestId, message } = await bot.clickProposal(fresh);
    const blocks = message!.body.blocks as Any[];
    expect(JSON.stringify(blocks)).toContain('pods it refuses are refused again.');
    expect(JSON.stringify(blocks)).not.toContain('backend');
    expect(JSON.stringify(blocks)).toContain('dry run failed');
    expect(JSON.stringify(blocks)).toContain('already exists');
    const buttons = blocks.find((b) => b.type === 'actions')!.elements.map((e: Any) => e.text.text);
    expect(buttons).toEqual(['Reject']);
    expect(await bot.vote(requestId!, 'U0ANN')).toContain('dry run of this plan failed');
    expect(await bot.vote(requestId!, 'U0BEN')).toContain('dry run of this plan failed');
    const req = (await bot.approvals.get(requestId!))!;
    expect(req.status).toBe('pending');
    expect(req.approvals).toEqual([]);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
    const refused = (await bot.audit.list({ limit: 100 })).filter(
      (e) => e.requestId === requestId && e.event === 'refused',
    );
    expect(refused.map((e) => `${e.user}:${e.detail}`).sort()).toEqual([
      'U0ANN:dry-run-failed',
      'U0BEN:dry-run-failed',
    ]);
  }, 60_000);
});

describe('declared RBAC', () => {
  it('every request of these flows is covered by the rbac webhook.suspend and webhook.restore declare', () => {
    const declared = [...findAction('webhook.suspend').rbac, ...findAction('webhook.restore').rbac];
    const needs = bot.kube.requests.map((r) => rbacOfRequest(r.method, r.path)).filter((n) => n !== undefined);
    expect(needs.map((n) => n.verb)).toEqual(expect.arrayContaining(['get', 'delete', 'create']));
    expect(needs.filter((n) => !isGranted(n, declared))).toEqual([]);
  });
});
