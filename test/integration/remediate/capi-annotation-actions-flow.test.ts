/**
 * The Cluster API annotation fixes through the real approval path (signed Bolt requests, Redis, BullMQ remediate
 * worker, the fake Kubernetes API server as the management cluster): skip a blocked drain / volume-detach wait of one
 * Machine being deleted, pause a MachineHealthCheck's remediation — each dry-run first, pinned, executed once,
 * verified, and undone through its own gated proposal.
 */
import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { findAction } from '../../../src/approvals/actions/index.js';
import { deletingMachine, drainMessage, mdMachine, pdbRefusalLine } from '../../support/blocker-objects.js';
import { isGranted, rbacOfRequest } from '../../support/rbac-of-request.js';
import { mhc } from '../../support/snapshot-b.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const EXCLUDE_DRAIN = 'machine.cluster.x-k8s.io/exclude-node-draining';
const EXCLUDE_DETACH = 'machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach';
const PAUSED = 'cluster.x-k8s.io/paused';
const draining = (name: string) =>
  deletingMachine({
    name,
    deletingMin: 45,
    stage: 'DrainingNode',
    message: drainMessage(44, [pdbRefusalLine(['shop/db-0'], 'db', 2, 2)]),
  });
const withUid = (o: KubeObject, uid: string): KubeObject => ({ ...o, metadata: { ...o.metadata, uid } });
const healthCheck = (name: string, annotations?: Record<string, string>): KubeObject => {
  const m = mhc(name);
  return {
    ...m,
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    metadata: { ...m.metadata, uid: `uid-${name}`, ...(annotations ? { annotations } : {}) },
  };
};

const bot = useApprovalBot({
  objects: [
    draining('md-0-drain-a'),
    draining('md-0-drain-b'),
    deletingMachine({
      name: 'md-0-detach',
      deletingMin: 40,
      stage: 'WaitingForVolumeDetach',
      message:
        'Waiting for Node volumes to be detached (started at 2025-03-01T09:00:00Z)\n* PersistentVolumeClaims: shop/data-db-0',
    }),
    withUid(mdMachine('md-0-running', { node: 'md-0-running' }), 'uid-md-0-running'),
    healthCheck('md-0-mhc'),
    healthCheck('md-0-mhc-b'),
  ],
});

const writesTo = (name: string) =>
  bot.kube.writes.filter((w) => w.name === name).map((w) => `${w.method} dry=${w.dryRun}`);
const annotations = (kind: string, name: string) =>
  (bot.kube.find(kind, name, 'ns1') as Any).metadata.annotations ?? {};
const undoButton = async (requestId: string) =>
  ((await bot.resultMessage(requestId)).body.blocks as Any[]).find((b) => b.type === 'actions')?.elements[0];
const approveBoth = async (requestId: string) => {
  await bot.vote(requestId, 'U0ANN');
  await bot.vote(requestId, 'U0BEN');
  return bot.waitStatus(requestId, ['succeeded', 'failed', 'aborted']);
};

describe('machine.skip-drain and its undo machine.wait-for-drain', () => {
  it('annotates the Machine being deleted (dry run first, pinned to uid and resourceVersion), and the undo removes exactly that annotation', async () => {
    const { requestId, message, request } = await bot.runApproved({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'md-0-drain-a' },
      label: 'Skip drain: md-0-drain-a',
      risk: 'r',
    });
    const shown = JSON.stringify(message.body.blocks);
    expect(shown).toContain(
      'server-side dry run (dryRun=All) accepted: PATCH /apis/cluster.x-k8s.io/v1beta2/namespaces/ns1/machines/md-0-drain-a',
    );
    expect(shown).toContain('is being deleted (deletionTimestamp set)');
    expect(request.status).toBe('succeeded');
    expect(request.result).toContain('done and verified');
    expect(writesTo('md-0-drain-a')).toEqual(['PATCH dry=true', 'PATCH dry=false']);
    const write = bot.kube.writes.find((w) => w.name === 'md-0-drain-a' && !w.dryRun)!;
    expect(write.contentType).toBe('application/json-patch+json');
    const value = annotations('Machine', 'md-0-drain-a')[EXCLUDE_DRAIN] as string;
    expect(value).toMatch(new RegExp(`^k8s-health-bot \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z request ${requestId}$`));
    expect(write.body).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'uid-md-0-drain-a' },
      { op: 'test', path: '/metadata/resourceVersion', value: expect.any(String) },
      { op: 'add', path: '/metadata/annotations/machine.cluster.x-k8s.io~1exclude-node-draining', value },
    ]);

    const undo = await undoButton(requestId);
    expect(undo.text.text).toBe('Resume drain: md-0-drain-a');
    const back = await bot.clickProposal(undo.value);
    expect(JSON.stringify(back.message!.body.blocks)).toContain('action machine.wait-for-drain · ');
    expect((await approveBoth(back.requestId!)).status).toBe('succeeded');
    expect(annotations('Machine', 'md-0-drain-a')[EXCLUDE_DRAIN]).toBeUndefined();
    expect(writesTo('md-0-drain-a')).toEqual([
      'PATCH dry=true',
      'PATCH dry=false',
      'PATCH dry=true',
      'PATCH dry=false',
    ]);
  }, 60_000);

  it('aborts with nothing changed when the drain finished between proposal and approval', async () => {
    const { requestId } = await bot.propose({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'md-0-drain-b' },
      label: 'Skip drain: md-0-drain-b',
      risk: 'r',
    });
    const now = bot.kube.find('Machine', 'md-0-drain-b', 'ns1') as Any;
    bot.kube.emit('MODIFIED', {
      ...now,
      status: {
        ...now.status,
        conditions: [
          {
            type: 'Deleting',
            status: 'True',
            reason: 'WaitingForInfrastructureDeletion',
            message: 'Waiting for DockerMachine to be deleted',
          },
        ],
      },
    } as KubeObject);
    const done = await approveBoth(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toBe(
      'aborted, nothing was changed: Machine ns1/md-0-drain-b is no longer draining (stage WaitingForInfrastructureDeletion): nothing to skip',
    );
    expect(writesTo('md-0-drain-b')).toEqual(['PATCH dry=true']);
    expect(annotations('Machine', 'md-0-drain-b')[EXCLUDE_DRAIN]).toBeUndefined();
  }, 60_000);

  it('is never proposed for a Machine that is not being deleted (the annotation would silently skip a future drain)', async () => {
    const { requestId, ephemeral } = await bot.propose({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'md-0-running' },
      label: 'Skip drain: md-0-running',
      risk: 'r',
    });
    expect(requestId).toBeUndefined();
    expect(JSON.stringify(ephemeral)).toContain('Machine ns1/md-0-running is not being deleted');
    expect(writesTo('md-0-running')).toEqual([]);
  }, 60_000);
});

describe('machine.skip-volume-detach and its undo', () => {
  it('annotates exclude-wait-for-node-volume-detach, and the undo removes it', async () => {
    const { requestId, request } = await bot.runApproved({
      action: 'machine.skip-volume-detach',
      params: { namespace: 'ns1', name: 'md-0-detach' },
      label: 'Skip volume-detach wait: md-0-detach',
      risk: 'r',
    });
    expect(request.status).toBe('succeeded');
    expect(annotations('Machine', 'md-0-detach')[EXCLUDE_DETACH]).toContain(`request ${requestId}`);
    const undo = await undoButton(requestId);
    expect(undo.text.text).toBe('Resume volume-detach wait: md-0-detach');
    const back = await bot.clickProposal(undo.value);
    expect((await approveBoth(back.requestId!)).status).toBe('succeeded');
    expect(annotations('Machine', 'md-0-detach')[EXCLUDE_DETACH]).toBeUndefined();
  }, 60_000);
});

describe('mhc.pause-remediation and mhc.resume-remediation (the loop breaker)', () => {
  it('pauses the MachineHealthCheck and resumes it', async () => {
    const { requestId, request } = await bot.runApproved({
      action: 'mhc.pause-remediation',
      params: { namespace: 'ns1', name: 'md-0-mhc' },
      label: 'Pause remediation: md-0-mhc',
      risk: 'r',
    });
    expect(request.status).toBe('succeeded');
    expect(writesTo('md-0-mhc')).toEqual(['PATCH dry=true', 'PATCH dry=false']);
    expect(annotations('MachineHealthCheck', 'md-0-mhc')[PAUSED]).toMatch(/^k8s-health-bot .* request /);
    const undo = await undoButton(requestId);
    expect(undo.text.text).toBe('Resume remediation: md-0-mhc');
    const back = await bot.clickProposal(undo.value);
    expect((await approveBoth(back.requestId!)).status).toBe('succeeded');
    expect(annotations('MachineHealthCheck', 'md-0-mhc')[PAUSED]).toBeUndefined();
    const resume = bot.kube.writes.filter((w) => w.name === 'md-0-mhc' && !w.dryRun)[1]!;
    expect((resume.body as Any[]).map((op) => op.op)).toEqual(['test', 'test', 'remove']);
  }, 60_000);

  it("never lifts someone else's pause: a resume whose value no longer matches aborts with nothing changed", async () => {
    const { requestId } = await bot.runApproved({
      action: 'mhc.pause-remediation',
      params: { namespace: 'ns1', name: 'md-0-mhc-b' },
      label: 'Pause remediation: md-0-mhc-b',
      risk: 'r',
    });
    const undo = await undoButton(requestId);
    const back = await bot.clickProposal(undo.value);
    // Meanwhile an operator re-pauses it for clusterctl move (their own value).
    const now = bot.kube.find('MachineHealthCheck', 'md-0-mhc-b', 'ns1') as Any;
    bot.kube.emit('MODIFIED', {
      ...now,
      metadata: { ...now.metadata, annotations: { [PAUSED]: 'true' } },
    } as KubeObject);
    const done = await approveBoth(back.requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain(`carries ${PAUSED}="true", not the value the bot wrote`);
    expect(annotations('MachineHealthCheck', 'md-0-mhc-b')[PAUSED]).toBe('true');
    expect(writesTo('md-0-mhc-b')).toEqual(['PATCH dry=true', 'PATCH dry=false', 'PATCH dry=true']);
  }, 60_000);
});

describe('declared RBAC', () => {
  it('every request these flows sent is covered by the rbac its catalog actions declare', () => {
    const declared = [
      'machine.skip-drain',
      'machine.wait-for-drain',
      'machine.skip-volume-detach',
      'machine.wait-for-volume-detach',
      'mhc.pause-remediation',
      'mhc.resume-remediation',
    ].flatMap((id) => findAction(id).rbac);
    const needs = bot.kube.requests.map((r) => rbacOfRequest(r.method, r.path)).filter((n) => n !== undefined);
    expect(needs.length).toBeGreaterThan(10);
    expect(needs.filter((n) => !isGranted(n, declared))).toEqual([]);
  });
});
