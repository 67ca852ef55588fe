import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { findAction } from '../../../src/approvals/actions/index.js';
import { isGranted, rbacOfRequest } from '../../support/rbac-of-request.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const OUT_OF_SERVICE = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' };
const UNREACHABLE = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2025-03-01T09:00:00Z' };

const node = (name: string, ready: 'True' | 'Unknown'): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}` },
    spec: { taints: ready === 'True' ? [] : [UNREACHABLE] },
    status: {
      conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'KubeletReady' : 'NodeStatusUnknown' }],
    },
  }) as unknown as KubeObject;
/** Seed 004: the node's Machine is being deleted (its VM is gone), so the node is confirmed gone. */
const machine = (name: string, nodeName: string, phase: string): KubeObject =>
  ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ...(phase === 'Deleting' ? { deletionTimestamp: '2025-03-01T09:05:00Z' } : {}),
    },
    spec: { clusterName: 'prod-east' },
    status: { phase, nodeRef: { kind: 'Node', name: nodeName } },
  }) as unknown as KubeObject;
const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'db-0',
    namespace: 'shop',
    uid: 'uid-db-0',
    deletionTimestamp: '2025-03-01T09:10:00Z',
    deletionGracePeriodSeconds: 30,
  },
  spec: { nodeName: 'worker-gone', containers: [{ name: 'db', image: 'postgres:16' }] },
  status: { phase: 'Running' },
} as unknown as KubeObject;
const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kyverno-admission-controller', namespace: 'kyverno', uid: 'uid-dep' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

const bot = useApprovalBot({
  objects: [
    node('worker-gone', 'Unknown'),
    machine('md-0-gone', 'worker-gone', 'Deleting'),
    node('worker-dead', 'Unknown'),
    machine('md-0-dead', 'worker-dead', 'Deleting'),
    node('worker-back', 'Unknown'),
    machine('md-0-back', 'worker-back', 'Deleting'),
    pod,
    deployment,
  ],
});

/** Writes to one object, as "METHOD dry=…", in order. */
const writesTo = (name: string) =>
  bot.kube.writes.filter((w) => w.name === name).map((w) => `${w.method} dry=${w.dryRun}`);
const undoButton = async (requestId: string) =>
  ((await bot.resultMessage(requestId)).body.blocks as Any[]).find((b) => b.type === 'actions')?.elements[0];

describe('node.out-of-service and its undo', () => {
  it('taints a node confirmed gone (dry run first), verifies, and the undo proposal removes only that taint', async () => {
    const { requestId, message, request } = await bot.runApproved({
      action: 'node.out-of-service',
      params: { name: 'worker-gone' },
      label: 'Mark node worker-gone out-of-service',
      risk: 'r',
    });
    expect(JSON.stringify(message.body.blocks)).toContain(
      'server-side dry run (dryRun=All) accepted: PATCH /api/v1/nodes/worker-gone',
    );
    expect(request.status).toBe('succeeded');
    expect(request.result).toContain('done and verified');
    expect(writesTo('worker-gone')).toEqual(['PATCH dry=true', 'PATCH dry=false']);
    expect(bot.kube.writes.find((w) => w.name === 'worker-gone' && !w.dryRun)!.contentType).toBe(
      'application/json-patch+json',
    );
    expect((bot.kube.find('Node', 'worker-gone') as Any).spec.taints).toEqual([UNREACHABLE, OUT_OF_SERVICE]);

    const undo = await undoButton(requestId);
    expect(undo.text.text).toBe('Remove out-of-service taint from worker-gone');
    const back = await bot.clickProposal(undo.value);
    expect(back.message!.body.text).toContain('Remove out-of-service taint from worker-gone');
    expect(JSON.stringify(back.message!.body.blocks)).toContain('action node.remove-out-of-service · ');
    expect((bot.kube.find('Node', 'worker-gone') as Any).spec.taints).toEqual([UNREACHABLE, OUT_OF_SERVICE]);
    await bot.vote(back.requestId!, 'U0ANN');
    await bot.vote(back.requestId!, 'U0BEN');
    const done = await bot.waitStatus(back.requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('succeeded');
    expect(writesTo('worker-gone')).toEqual(['PATCH dry=true', 'PATCH dry=false', 'PATCH dry=true', 'PATCH dry=false']);
    expect((bot.kube.find('Node', 'worker-gone') as Any).spec.taints).toEqual([UNREACHABLE]);
  }, 60_000);
});

describe('node.delete', () => {
  it('deletes a node confirmed gone, after a dry run and a full backup', async () => {
    const before = bot.kube.find('Node', 'worker-dead');
    const { requestId, request } = await bot.runApproved({
      action: 'node.delete',
      params: { name: 'worker-dead' },
      label: 'Delete node worker-dead',
      risk: 'r',
    });
    expect(request.status).toBe('succeeded');
    expect(writesTo('worker-dead')).toEqual(['DELETE dry=true', 'DELETE dry=false']);
    expect(bot.kube.find('Node', 'worker-dead')).toBeUndefined();
    expect((await bot.backups.load(requestId))!.object).toEqual(before);
  }, 60_000);

  it('aborts when the node turned Ready again between proposal and approval', async () => {
    const { requestId, message } = await bot.propose({
      action: 'node.delete',
      params: { name: 'worker-back' },
      label: 'Delete node worker-back',
      risk: 'r',
    });
    expect(JSON.stringify(message!.body.blocks)).toContain('dryRun=All) accepted');
    bot.kube.emit('MODIFIED', node('worker-back', 'True'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toBe('aborted, nothing was changed: node worker-back is Ready again');
    expect(writesTo('worker-back')).toEqual(['DELETE dry=true']);
    expect(bot.kube.find('Node', 'worker-back')).toBeDefined();
  }, 60_000);
});

describe('pod.force-delete', () => {
  it('deletes with gracePeriodSeconds=0, dry run first, after a full backup', async () => {
    const { requestId, message, request } = await bot.runApproved({
      action: 'pod.force-delete',
      params: { namespace: 'shop', name: 'db-0' },
      label: 'Force-delete pod shop/db-0',
      risk: 'r',
    });
    expect(JSON.stringify(message.body.blocks)).toContain(
      'DELETE /api/v1/namespaces/shop/pods/db-0?gracePeriodSeconds=0',
    );
    expect(request.status).toBe('succeeded');
    const deletes = bot.kube.writes.filter((w) => w.name === 'db-0');
    expect(deletes.map((w) => [w.method, w.query])).toEqual([
      ['DELETE', { gracePeriodSeconds: '0', dryRun: 'All' }],
      ['DELETE', { gracePeriodSeconds: '0' }],
    ]);
    // Pinned to the pod that was backed up: its uid and resourceVersion.
    const backedUp = (await bot.backups.load(requestId))!.object;
    expect(deletes[1]!.body).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'uid-db-0', resourceVersion: backedUp.metadata.resourceVersion },
    });
    expect(bot.kube.find('Pod', 'db-0', 'shop')).toBeUndefined();
    expect((await bot.backups.load(requestId))!.object.metadata.uid).toBe('uid-db-0');
  }, 60_000);
});

describe('deployment.scale and back', () => {
  it('scales to 0 recording the replicas it replaced, and the undo scales back to exactly those', async () => {
    const { requestId, message, request } = await bot.runApproved({
      action: 'deployment.scale',
      params: { namespace: 'kyverno', name: 'kyverno-admission-controller', replicas: 0 },
      label: 'Scale kyverno/kyverno-admission-controller to 0',
      risk: 'r',
    });
    expect(JSON.stringify(message.body.blocks)).toContain('(recorded: 3)');
    expect(request.status).toBe('succeeded');
    expect((bot.kube.find('Deployment', 'kyverno-admission-controller', 'kyverno') as Any).spec.replicas).toBe(0);

    const undo = await undoButton(requestId);
    expect(undo.text.text).toBe('Scale kyverno/kyverno-admission-controller back to 3');
    const back = await bot.clickProposal(undo.value);
    expect(JSON.stringify(back.message!.body.blocks)).toContain('(recorded: 0)');
    await bot.vote(back.requestId!, 'U0ANN');
    await bot.vote(back.requestId!, 'U0BEN');
    expect((await bot.waitStatus(back.requestId!, ['succeeded', 'failed', 'aborted'])).status).toBe('succeeded');
    expect((bot.kube.find('Deployment', 'kyverno-admission-controller', 'kyverno') as Any).spec.replicas).toBe(3);
    const patches = bot.kube.writes.filter((w) => w.name === 'kyverno-admission-controller');
    // Every PATCH is pinned: the uid recorded at proposal time and the resourceVersion just read.
    const pinned = (replicas: number) => ({
      metadata: { uid: 'uid-dep', resourceVersion: expect.any(String) },
      spec: { replicas },
    });
    expect(patches.map((w) => [w.dryRun, w.body])).toEqual([
      [true, pinned(0)],
      [false, pinned(0)],
      [true, pinned(3)],
      [false, pinned(3)],
    ]);
  }, 60_000);
});

describe('declared RBAC', () => {
  it('every request these flows sent is covered by the rbac its catalog actions declare', () => {
    const declared = [
      'node.out-of-service',
      'node.remove-out-of-service',
      'node.delete',
      'pod.force-delete',
      'deployment.scale',
    ].flatMap((id) => findAction(id).rbac);
    const needs = bot.kube.requests.map((r) => rbacOfRequest(r.method, r.path)).filter((n) => n !== undefined);
    expect(needs.length).toBeGreaterThan(10);
    expect(needs.filter((n) => !isGranted(n, declared))).toEqual([]);
  });
});
