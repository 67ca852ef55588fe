import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { clusterSchema, configSchema } from '../../src/config/config-schema.js';
import { scanCluster } from '../../src/scan/scan-cluster.js';
import { createSimulatedControllers } from '../../src/sandbox/create-simulated-controllers.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';

/** The sandbox's live incident (prod-east): seed 003, a webhook that refuses the CNI's pods. */
const SCENARIO = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
const WEBHOOK =
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-resource-validating-webhook-cfg';
/** A "next scan" of the sandbox: 6 minutes. */
const STEP_MS = 6 * 60_000;
const KCP = { kind: 'KubeadmControlPlane', name: 'tkc-prod-control-plane', ns: 'ns-prod' };

const started: FakeKubeApi[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.close()));
});

/**
 * The live cluster of the sandbox as `k8s-health sandbox` serves it (workload and management API
 * servers from the scenario dump), its simulated controllers, and the real collection + analysis
 * through a History, as the scan worker runs it; `step()` is one "next scan".
 */
async function startLiveCluster() {
  const workload = await startFakeKubeApi({ dir: SCENARIO, cluster: 'workload' });
  const management = await startFakeKubeApi({ dir: SCENARIO, cluster: 'management' });
  started.push(workload, management);
  const cluster = clusterSchema.parse({
    name: 'prod-east',
    workload: { kubeconfig: await writeTestKubeConfig(workload.url, 'workload') },
    management: { kubeconfig: await writeTestKubeConfig(management.url, 'supervisor') },
  });
  const { thresholds } = configSchema.parse({ clusters: [{ name: 'x', dump: '.' }] });
  const history = new InMemoryHistory();
  let now = new Date('2025-02-17T10:00:00Z');
  const controllers = createSimulatedControllers({ workload, management });
  const scan = async () => {
    const report = await scanCluster(cluster, { history, thresholds, now: () => now });
    return report.findings
      .filter((f) => f.severity !== 'info')
      .map((f) => f.id)
      .sort();
  };
  return {
    workload,
    management,
    scan,
    /** Move the clock one "next scan", let the controllers take their step, scan. */
    async step() {
      now = new Date(now.getTime() + STEP_MS);
      const changes = controllers.reconcile(now);
      return { changes, alerting: await scan() };
    },
  };
}

const kube = (api: FakeKubeApi, method: string, p: string, body?: unknown, contentType = 'application/json') =>
  fetch(`${api.url}${p}`, {
    method,
    headers: { 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("the sandbox live cluster's simulated controllers", () => {
  it('move nothing while the webhook refuses pods: a dry run, or scaling kyverno to 0, does not unblock them', async () => {
    const live = await startLiveCluster();
    const before = await live.scan();
    expect(before).toEqual(
      expect.arrayContaining([
        'capi.recreation-loop',
        'cni.pod-not-running',
        'node.cni-not-initialized',
        'upgrade.stuck',
        'webhook.unavailable-blocking',
      ]),
    );
    expect((await kube(live.workload, 'DELETE', `${WEBHOOK}?dryRun=All`)).status).toBe(200);
    // The other proposed fix: kyverno stops, but its webhook still fails closed with no endpoint.
    const scale = await kube(
      live.workload,
      'PATCH',
      '/apis/apps/v1/namespaces/kyverno/deployments/kyverno-admission-controller',
      [{ op: 'replace', path: '/spec/replicas', value: 0 }],
      'application/json-patch+json',
    );
    expect(scale.status).toBeLessThan(300);
    const rv = live.management.find('KubeadmControlPlane', KCP.name, KCP.ns)?.metadata.resourceVersion;
    for (let i = 0; i < 3; i++) {
      const { changes, alerting } = await live.step();
      expect(changes).toEqual([]);
      expect(alerting).toEqual(
        expect.arrayContaining(['capi.recreation-loop', 'node.cni-not-initialized', 'webhook.unavailable-blocking']),
      );
    }
    expect(live.management.find('KubeadmControlPlane', KCP.name, KCP.ns)?.metadata.resourceVersion).toBe(rv);
    expect(live.management.find('Machine', 'tkc-prod-control-plane-x7bq9', KCP.ns)).toBeDefined();
  }, 60_000);

  it('heal the cluster step by step once the fix deleted the webhook: every alerting finding is gone after a few scans', async () => {
    const live = await startLiveCluster();
    expect((await kube(live.workload, 'DELETE', WEBHOOK)).status).toBe(200);

    // Step 1: the machine being deleted goes, the CNI agent reaches the new node, which turns Ready;
    // KCP then replaces its oldest outdated machine.
    const first = await live.step();
    expect(first.changes[0]).toContain(
      'ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg deleted',
    );
    expect(live.management.find('Machine', 'tkc-prod-control-plane-x7bq9', KCP.ns)).toBeUndefined();
    const node = live.workload.find('Node', 'tkc-prod-control-plane-k2v4d');
    expect(node?.status.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
      lastTransitionTime: '2025-02-17T10:06:00Z',
    });
    expect(
      live.workload
        .list('Pod', 'kube-system')
        .some(
          (p) =>
            p.metadata.name.startsWith('antrea-agent-') &&
            p.spec.nodeName === 'tkc-prod-control-plane-k2v4d' &&
            p.status.phase === 'Running',
        ),
    ).toBe(true);
    expect(live.management.find('Machine', 'tkc-prod-control-plane-8dqxw', KCP.ns)).toBeUndefined();
    expect(live.workload.find('Node', 'tkc-prod-control-plane-8dqxw')).toBeUndefined();
    // The symptoms of the node are gone from this scan on, and so is the root cause.
    expect(first.alerting).not.toContain('node.cni-not-initialized');
    expect(first.alerting).not.toContain('cni.pod-not-running');
    expect(first.alerting).not.toContain('webhook.unavailable-blocking');
    expect(first.alerting).not.toContain('upgrade.stuck');

    // Steps 2 and 3: the rollout goes on, one machine a step, and completes.
    await live.step();
    const third = await live.step();
    expect(third.changes.join('\n')).toContain('rollout to v1.27.11+vmware.1 complete');
    const kcp = live.management.find('KubeadmControlPlane', KCP.name, KCP.ns)!;
    expect(kcp.status).toMatchObject({
      version: 'v1.27.11+vmware.1',
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      unavailableReplicas: 0,
    });
    const machines = live.management
      .list('Machine', KCP.ns)
      .filter((m) => m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined);
    expect(machines.map((m) => m.spec.version)).toEqual([
      'v1.27.11+vmware.1',
      'v1.27.11+vmware.1',
      'v1.27.11+vmware.1',
    ]);
    expect(live.workload.find('DaemonSet', 'antrea-agent', 'kube-system')?.status).toMatchObject({
      desiredNumberScheduled: 6,
      numberReady: 6,
      numberUnavailable: 0,
    });

    // The loop is judged stopped once every machine has been Ready for longer than one loop cycle.
    const alerting: string[][] = [];
    for (let i = 0; i < 3 && (alerting.at(-1)?.length ?? 1) > 0; i++) alerting.push((await live.step()).alerting);
    expect(alerting.at(-1)).toEqual([]);
    // Healthy and steady: nothing left to do.
    expect((await live.step()).changes).toEqual([]);
  }, 90_000);

  it('stop where they are when the webhook is restored (the undo): pods are refused again', async () => {
    const live = await startLiveCluster();
    const backup = live.workload.find('ValidatingWebhookConfiguration', 'kyverno-resource-validating-webhook-cfg')!;
    expect((await kube(live.workload, 'DELETE', WEBHOOK)).status).toBe(200);
    await live.step();
    const { uid: _u, resourceVersion: _r, ...metadata } = backup.metadata;
    expect(
      (
        await kube(live.workload, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
          ...backup,
          metadata,
        })
      ).status,
    ).toBe(201);
    const kcp = live.management.find('KubeadmControlPlane', KCP.name, KCP.ns)!;
    const { changes, alerting } = await live.step();
    expect(changes).toEqual([]);
    expect(alerting).toContain('webhook.unavailable-blocking');
    // What was done stays done: the node that got its CNI keeps it.
    expect(live.management.find('KubeadmControlPlane', KCP.name, KCP.ns)?.metadata.resourceVersion).toBe(
      kcp.metadata.resourceVersion,
    );
    expect(
      live.workload
        .find('Node', 'tkc-prod-control-plane-k2v4d')
        ?.status.conditions.find((c: { type: string }) => c.type === 'Ready').status,
    ).toBe('True');
  }, 60_000);
});
