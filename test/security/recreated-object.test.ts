import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { deletingMachine, drainMessage, pdbRefusalLine } from '../support/blocker-objects.js';
import { mhc } from '../support/snapshot-b.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * Attack (or accident): the object a plan was made for is deleted and recreated under the same name
 * (by its operator, a StatefulSet, or a hostile controller) before the approved plan runs. The plan must never act on
 * the replacement: the live re-check catches a replacement made before execution, and the pin carried by the write
 * itself (DeleteOptions.preconditions, uid and resourceVersion in the patch) makes kube-apiserver refuse one that races
 * the write. Either way the request fails closed with a clear message in its thread and the replacement is left as it
 * was.
 */
const webhook = (uid: string): KubeObject =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'kyverno-policy', uid },
    webhooks: [{ name: 'v.kyverno.svc', failurePolicy: 'Fail' }],
  }) as unknown as KubeObject;
const deployment = (uid: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', uid },
    spec: { replicas: 3 },
  }) as unknown as KubeObject;
const pod = (uid: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'db-0', namespace: 'shop', uid, deletionTimestamp: '2025-03-01T09:10:00Z' },
    spec: { nodeName: 'gone', containers: [] },
  }) as unknown as KubeObject;
const goneNode: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'gone', uid: 'uid-node' },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
} as unknown as KubeObject;

// Cluster API objects of the management cluster that the annotation actions write.
const healthCheck = (uid: string): KubeObject => {
  const m = mhc('md-0-mhc');
  return { ...m, apiVersion: 'cluster.x-k8s.io/v1beta2', metadata: { ...m.metadata, uid } };
};
const drainingMachine = (uid: string): KubeObject => {
  const m = deletingMachine({
    name: 'md-0-drain',
    deletingMin: 45,
    stage: 'DrainingNode',
    message: drainMessage(44, [pdbRefusalLine(['shop/db-0'], 'db', 2, 2)]),
  });
  return { ...m, metadata: { ...m.metadata, uid } };
};

const bot = useApprovalBot({
  objects: [
    webhook('uid-a'),
    deployment('uid-a'),
    pod('uid-a'),
    goneNode,
    healthCheck('uid-a'),
    drainingMachine('uid-a'),
  ],
});

/** Delete and create again under the same name, as its owner would; returns the replacement as stored. */
function recreate(kind: string, replacement: KubeObject): KubeObject {
  bot.kube.emit('DELETED', bot.kube.find(kind, replacement.metadata.name, replacement.metadata.namespace)!);
  bot.kube.emit('ADDED', replacement);
  return structuredClone(bot.kube.find(kind, replacement.metadata.name, replacement.metadata.namespace)!);
}
/**
 * Recreates the object (a new uid) the moment the first real write to it reaches the API server; returns what replaced
 * it.
 */
function recreateAtWrite(kind: string, fresh: KubeObject): () => KubeObject | undefined {
  let replacement: KubeObject | undefined;
  bot.kube.beforeWrite = (w) => {
    if (w.dryRun || w.name !== fresh.metadata.name) return;
    bot.kube.beforeWrite = undefined;
    replacement = recreate(kind, fresh);
  };
  return () => replacement;
}
async function thread(id: string): Promise<string> {
  const m = await bot.slack.waitFor(
    `result of ${id}`,
    () =>
      bot.slack
        .callsTo('chat.postMessage')
        .find(
          (c) =>
            JSON.stringify(c.body.blocks ?? '').includes(`outcome of request ${id}`) &&
            String(c.body.text).includes('aborted'),
        ),
    30_000,
  );
  return String(m.body.text);
}

describe('a plan never acts on a replacement with the same name', () => {
  it('Deployment recreated between proposal and approval: the live re-check aborts, nothing written', async () => {
    const { requestId } = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'web', replicas: 0 },
      label: 'Scale shop/web to 0',
      risk: 'r',
    });
    const replacement = recreate('Deployment', deployment('uid-b'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toBe(
      'aborted, nothing was changed: Deployment shop/web was replaced since the proposal (uid uid-a → uid-b): the plan never acts on a replacement',
    );
    expect(await thread(requestId!)).toContain('was replaced since the proposal (uid uid-a → uid-b)');
    expect(bot.kube.find('Deployment', 'web', 'shop')).toEqual(replacement);
    expect(bot.kube.writes.filter((w) => w.name === 'web' && !w.dryRun)).toEqual([]);
  }, 60_000);

  it('StatefulSet pod recreated before the force-delete: aborted, the new pod is never force-deleted', async () => {
    const { requestId } = await bot.propose({
      action: 'pod.force-delete',
      params: { namespace: 'shop', name: 'db-0' },
      label: 'Force-delete pod shop/db-0',
      risk: 'r',
    });
    const replacement = recreate('Pod', pod('uid-b'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain('pod shop/db-0 was replaced since the proposal (uid uid-a → uid-b)');
    expect(bot.kube.find('Pod', 'db-0', 'shop')).toEqual(replacement);
    expect(bot.kube.writes.filter((w) => w.name === 'db-0' && !w.dryRun)).toEqual([]);
  }, 60_000);

  it('webhook recreated at the very moment of the DELETE: the API server refuses the pinned DELETE (409), the thread says nothing was changed', async () => {
    const { requestId } = await bot.propose({
      action: 'webhook.suspend',
      params: { kind: 'Validating', name: 'kyverno-policy' },
      label: 'Suspend webhook kyverno-policy',
      risk: 'r',
    });
    const replacement = recreateAtWrite('ValidatingWebhookConfiguration', webhook('uid-b'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain(
      'aborted, nothing was changed: the API server refused the write pinned to the object this plan was made for',
    );
    expect(done.result).toContain(
      'the UID in the precondition (uid-a) does not match the UID in record (uid-b). The object might have been deleted and then recreated',
    );
    expect(await thread(requestId!)).toContain('nothing was changed');
    // The one real DELETE that reached the API server carried the pin and was refused: the replacement is intact.
    const deletes = bot.kube.writes.filter((w) => w.name === 'kyverno-policy' && !w.dryRun);
    expect(deletes).toHaveLength(1);
    expect((deletes[0]!.body as Any).preconditions).toEqual({ uid: 'uid-a', resourceVersion: expect.any(String) });
    expect(bot.kube.find('ValidatingWebhookConfiguration', 'kyverno-policy')).toEqual(replacement());
  }, 60_000);

  it('Machine recreated between proposal and approval (machine.skip-drain): the live re-check aborts, the new Machine is never annotated', async () => {
    const { requestId } = await bot.propose({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'md-0-drain' },
      label: 'Skip drain: md-0-drain',
      risk: 'r',
    });
    const replacement = recreate('Machine', drainingMachine('uid-b'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toBe(
      'aborted, nothing was changed: Machine ns1/md-0-drain was replaced since the proposal (uid uid-a → uid-b): the plan never acts on a replacement',
    );
    expect(await thread(requestId!)).toContain('was replaced since the proposal (uid uid-a → uid-b)');
    expect(bot.kube.find('Machine', 'md-0-drain', 'ns1')).toEqual(replacement);
    expect(bot.kube.writes.filter((w) => w.name === 'md-0-drain' && !w.dryRun)).toEqual([]);
  }, 60_000);

  it('MachineHealthCheck recreated at the very moment of the PATCH (mhc.pause-remediation): the json-patch `test` on its uid fails (422), the new one is not paused', async () => {
    const { requestId } = await bot.propose({
      action: 'mhc.pause-remediation',
      params: { namespace: 'ns1', name: 'md-0-mhc' },
      label: 'Pause remediation: md-0-mhc',
      risk: 'r',
    });
    const replacement = recreateAtWrite('MachineHealthCheck', healthCheck('uid-b'));
    const done = await bot.approveTwice(requestId!);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain(
      'aborted, nothing was changed: the API server refused the write pinned to the object this plan was made for',
    );
    expect(done.result).toContain('json-patch test failed at "/metadata/uid"');
    expect(await thread(requestId!)).toContain('nothing was changed');
    // The one real PATCH carried the pin (uid and resourceVersion tested first) and was refused: the replacement is
    // intact.
    const patches = bot.kube.writes.filter((w) => w.name === 'md-0-mhc' && !w.dryRun);
    expect(patches).toHaveLength(1);
    expect((patches[0]!.body as Any[]).slice(0, 2)).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'uid-a' },
      { op: 'test', path: '/metadata/resourceVersion', value: expect.any(String) },
    ]);
    expect(bot.kube.find('MachineHealthCheck', 'md-0-mhc', 'ns1')).toEqual(replacement());
    expect((replacement()!.metadata.annotations ?? {})['cluster.x-k8s.io/paused']).toBeUndefined();
  }, 60_000);
});
