import { describe, expect, it } from '@jest/globals';
import { KINDS } from '../../src/cluster/kinds.js';
import type { KindCoverage, Snapshot } from '../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { UNKNOWN_TIME_MISSING } from '../../src/diagnose/apply-unknown-time.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { buildReport } from '../../src/report/build-report.js';
import { renderBlocks } from '../../src/slack/render/render-blocks.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderText } from '../../src/report/render-text.js';
import type { Report } from '../../src/report/report.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { ago, buildSnapshot, NOW } from '../support/build-snapshot.js';
import { node, pod } from '../support/snapshot-b.js';

/**
 * Defect classes 8 (time), 9 (green means checked) and 10 (pods): the section and overall
 * statuses and how every renderer says them.
 */
const coverage = (of: (kind: string) => KindCoverage): Record<string, KindCoverage> =>
  Object.fromEntries(KINDS.map((k) => [k.kind, of(k.kind)]));
const allRead = () => coverage(() => ({ state: 'read' }));
const status = (r: Report, id: string) => r.sections.find((s) => s.id === id);
const reportOf = (s: Snapshot) => buildReport(s, { findings: [], errors: [] }, { generatedAt: new Date(NOW) });
const healthyCluster = (o: Partial<Snapshot> = {}) =>
  buildSnapshot({
    nodes: [node('cp-1', { cp: true }), node('w1')],
    pods: [pod('kube-system', 'coredns-1', { containers: [{ name: 'coredns', ready: true, restartCount: 0 }] })],
    coverage: allRead(),
    ...o,
  });

describe('green means checked (defect class 9)', () => {
  it('a kind that was listed, even empty, is checked: webhooks healthy with none; all key sections read → healthy', () => {
    const r = reportOf(healthyCluster());
    expect(status(r, 'webhooks')).toEqual({
      id: 'webhooks',
      status: 'healthy',
      summary: 'no admission webhook configurations',
    });
    expect(r.status).toBe('healthy');
  });

  it('webhooks never listed (kubectl cluster-info dump has none): unknown, "not collected", never green', () => {
    const r = reportOf(
      healthyCluster({
        coverage: coverage((k) =>
          k.endsWith('WebhookConfiguration') ? { state: 'missing', why: 'not in the capture' } : { state: 'read' },
        ),
      }),
    );
    expect(status(r, 'webhooks')).toEqual({
      id: 'webhooks',
      status: 'unknown',
      summary: 'not collected: no ValidatingWebhookConfigurations or MutatingWebhookConfigurations in the capture',
    });
    // Webhooks are not a key section: the rest was checked, so the cluster is healthy, and the grey line says what was
    // not.
    expect(r.status).toBe('healthy');
  });

  it('a failed list is unknown with its error, and a key section unknown makes the report unknown, not healthy', () => {
    const r = reportOf(
      healthyCluster({
        coverage: coverage((k) => (k === 'Pod' ? { state: 'failed', why: 'pods is forbidden' } : { state: 'read' })),
      }),
    );
    expect(status(r, 'workloads')).toEqual({
      id: 'workloads',
      status: 'unknown',
      summary: 'not collected: listing Pods failed: pods is forbidden',
    });
    expect(r.status).toBe('unknown');
  });

  it('API server unreachable while etcd answered: every API section unknown with why; etcd keeps its own line; the finding decides', async () => {
    const why = 'workload API server: connect ECONNREFUSED 10.0.0.10:6443';
    const s = buildSnapshot({
      origin: 'live',
      apiserver: { reachable: false, checks: [], error: 'connect ECONNREFUSED 10.0.0.10:6443' },
      etcd: {
        source: 'live',
        members: ['1', '2', '3'].map((id) => ({
          id,
          name: `cp-${id}`,
          peerURLs: [],
          clientURLs: [],
          isLearner: false,
        })),
        endpoints: ['1', '2', '3'].map((id) => ({
          endpoint: `https://10.0.0.1${id}:2379`,
          memberId: id,
          leader: '1',
          errors: [],
        })),
        health: ['1', '2', '3'].map((id) => ({ endpoint: `https://10.0.0.1${id}:2379`, health: true })),
        alarms: [],
      },
      coverage: coverage(() => ({ state: 'failed', why })),
    });
    const r = await scanSnapshot(s, { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
    for (const id of ['controlplane', 'nodes', 'webhooks', 'workloads']) {
      expect(status(r, id)).toEqual({
        id,
        status: 'unknown',
        summary: expect.stringMatching(/^not collected: listing \w+ failed: workload API server: connect ECONNREFUSED/),
      });
    }
    expect(status(r, 'etcd')?.status).not.toBe('unknown');
    expect([r.status, r.findings.map((f) => f.id)]).toEqual(['critical', ['apiserver.unreachable']]);
  });

  it('etcd with one of three members asked and not answering, quorum kept: named and degraded, never green (openshift/origin#27496)', async () => {
    const members = ['1', '2', '3'].map((id) => ({
      id,
      name: `cp-${id}`,
      peerURLs: [],
      clientURLs: [`https://10.0.0.1${id}:2379`],
      isLearner: false,
    }));
    const s = healthyCluster({
      etcd: {
        source: 'etcdctl',
        members,
        endpoints: ['1', '2'].map((id) => ({
          endpoint: `https://10.0.0.1${id}:2379`,
          memberId: id,
          leader: '2',
          errors: [],
        })),
        health: [],
        alarms: [],
        errors: [
          { command: 'endpoint status', endpoint: 'https://10.0.0.13:2379', error: 'context deadline exceeded' },
        ],
      },
    });
    const r = await scanSnapshot(s, { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
    // The leader answers with a quorum: degraded, with the member named and how many more may fail.
    expect(r.findings.filter((f) => f.section === 'etcd').map((f) => `${f.severity} ${f.id}: ${f.title}`)).toEqual([
      'warning etcd.quorum-degraded: etcd degraded, quorum held: cp-3 (3) does not answer (2 of 3 members answer, quorum 2; no further member may fail)',
    ]);
    expect(status(r, 'etcd')).toEqual({
      id: 'etcd',
      status: 'degraded',
      summary: expect.stringContaining('not answering: cp-3 (3) (endpoint status: context deadline exceeded)'),
    });
  });

  it('a dump holding objects from an API server that did not answer: the last known state, unknown, never green', async () => {
    // The bundled S1 dump's shape: nodes and pods as they were, meta.json apiserver.reachable false.
    const s = healthyCluster({ apiserver: { reachable: false, checks: [], error: 'context deadline exceeded' } });
    const r = await scanSnapshot(s, { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
    expect(status(r, 'nodes')).toEqual({
      id: 'nodes',
      status: 'unknown',
      summary: 'not checked: API server unreachable; last known: 2 of 2 nodes Ready (workers 1 of 1)',
    });
    expect(status(r, 'workloads')).toEqual({
      id: 'workloads',
      status: 'unknown',
      summary: 'not checked: API server unreachable; last known: 1 pods: 1 Running',
    });
    expect(status(r, 'controlplane')?.status).toBe('unknown');
    expect(status(r, 'webhooks')?.status).toBe('unknown');
    expect(r.status).toBe('critical');
    // The same objects with the API server answering are checked and green.
    const ok = reportOf(healthyCluster({ apiserver: { reachable: true, ready: true, checks: [] } }));
    expect(['controlplane', 'nodes', 'webhooks', 'workloads'].map((id) => status(ok, id)?.status)).toEqual([
      'healthy',
      'healthy',
      'healthy',
      'healthy',
    ]);
  });

  it('a Ready node under DiskPressure / MemoryPressure / PIDPressure is counted and named: the nodes line is degraded, not green', () => {
    const pressed = node('w2');
    (pressed.status as { conditions: unknown[] }).conditions.push(
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
      { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' },
    );
    const r = reportOf(healthyCluster({ nodes: [node('cp-1', { cp: true }), node('w1'), pressed] }));
    expect(status(r, 'nodes')).toEqual({
      id: 'nodes',
      status: 'degraded',
      summary: '3 of 3 nodes Ready (workers 2 of 2); under pressure: w2 (DiskPressure)',
    });
    // No finding given: the line speaks, the overall status does not (it comes from findings only).
    expect(r.status).toBe('healthy');
    // Pressure conditions reported False are the normal state.
    const calm = node('w2');
    (calm.status as { conditions: unknown[] }).conditions.push({
      type: 'DiskPressure',
      status: 'False',
      reason: 'KubeletHasNoDiskPressure',
    });
    expect(status(reportOf(healthyCluster({ nodes: [node('w1'), calm] })), 'nodes')?.status).toBe('healthy');
  });

  it('snapshots built without coverage keep the older rule (objects present = read)', () => {
    const r = reportOf(buildSnapshot({ nodes: [node('w1')], pods: [pod('default', 'web-1')] }));
    expect(status(r, 'nodes')?.status).toBe('healthy');
    expect(status(r, 'webhooks')?.status).toBe('healthy');
  });
});

describe('pods in CrashLoopBackOff are not healthy (defect class 10)', () => {
  const crashing = pod('velero', 'velero-6996dd565b-xl44t', {
    phase: 'Running',
    containers: [
      {
        name: 'velero',
        ready: false,
        restartCount: 3,
        waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container' },
      },
    ],
  });

  it('counted under its reason, not as Running, named, and the workloads section is degraded', () => {
    const r = reportOf(healthyCluster({ pods: [pod('kube-system', 'coredns-1'), crashing] }));
    expect(status(r, 'workloads')).toEqual({
      id: 'workloads',
      status: 'degraded',
      summary:
        '2 pods: 1 CrashLoopBackOff, 1 Running — not healthy: velero/velero-6996dd565b-xl44t: container velero CrashLoopBackOff (3 restarts)',
    });
    // Without a finding the status is not raised: workload.pods-unhealthy is what speaks of the pod.
    expect(r.status).toBe('healthy');
  });

  it('a Pending pod the scheduler refused is counted as Unschedulable, named with the verdict, and not green', () => {
    const unschedulable = pod('kube-system', 'coredns-74ff55c5b-ppjrs', {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message:
            "0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
          lastTransitionTime: '2022-02-02T15:00:15Z',
        },
      ],
    });
    const r = reportOf(healthyCluster({ pods: [pod('kube-system', 'coredns-1'), unschedulable] }));
    expect(status(r, 'workloads')).toEqual({
      id: 'workloads',
      status: 'degraded',
      summary:
        "2 pods: 1 Running, 1 Unschedulable — not healthy: kube-system/coredns-74ff55c5b-ppjrs: Unschedulable since 2022-02-02T15:00:15Z (0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate)",
    });
    expect(r.status).toBe('healthy');
  });

  it('a Pending pod waiting its turn, or already bound to a node, stays Pending and the line green', () => {
    const waiting = pod('default', 'web-1', { phase: 'Pending', conditions: [] });
    const bound = pod('default', 'web-2', {
      phase: 'Pending',
      nodeName: 'w1',
      conditions: [
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available' },
      ],
    });
    const r = reportOf(healthyCluster({ pods: [waiting, bound] }));
    expect(status(r, 'workloads')).toEqual({ id: 'workloads', status: 'healthy', summary: '2 pods: 2 Pending' });
  });

  it('more than three are counted, the first three named', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((x) =>
      pod('shop', `cart-${x}`, {
        containers: [{ name: 'cart', ready: false, restartCount: 0, waiting: { reason: 'ImagePullBackOff' } }],
      }),
    );
    expect(status(reportOf(healthyCluster({ pods: many })), 'workloads')?.summary).toBe(
      '5 pods: 5 ImagePullBackOff — not healthy: shop/cart-a: container cart ImagePullBackOff; shop/cart-b: container cart ImagePullBackOff; shop/cart-c: container cart ImagePullBackOff (+2 more)',
    );
  });

  it('a control-plane static pod in CrashLoopBackOff on a Ready node makes the control-plane line degraded and names it', () => {
    const apiserver = pod('kube-system', 'kube-apiserver-cp-1', {
      labels: { component: 'kube-apiserver', tier: 'control-plane' },
      ownerReferences: [{ kind: 'Node', name: 'cp-1' }],
      containers: [{ name: 'kube-apiserver', ready: false, restartCount: 12, waiting: { reason: 'CrashLoopBackOff' } }],
    });
    const r = reportOf(healthyCluster({ pods: [apiserver] }));
    expect(status(r, 'controlplane')).toEqual({
      id: 'controlplane',
      status: 'degraded',
      summary:
        '1 of 1 control-plane nodes Ready; static pods not healthy: kube-system/kube-apiserver-cp-1: container kube-apiserver CrashLoopBackOff (12 restarts)',
    });
  });
});

describe('capture time (defect class 8)', () => {
  const unknownTime = (o: Partial<Snapshot> = {}) =>
    healthyCluster({ collectedAt: '', collectedAtFrom: 'unknown', ...o });

  it('text, JSON and blocks say an inferred time is inferred and an unknown time is unknown (no NaN, no mtime)', async () => {
    const inferred = reportOf(healthyCluster({ collectedAtFrom: 'data' }));
    expect(renderText(inferred, { now: new Date('2023-11-30T17:10:00Z') })).toContain(
      '(capture time inferred from the newest timestamp in the data: 2023-11-30T17:00:00Z, 10m ago)',
    );
    expect(JSON.parse(renderJson(inferred))).toMatchObject({ collectedAt: NOW, collectedAtFrom: 'data' });

    const r = reportOf(unknownTime());
    const text = renderText(r, { now: new Date(NOW) });
    expect(text.split('\n')[0]).toBe(
      'it-tkg-mgmt: HEALTHY  (capture time unknown (no meta.json and no timestamp in the data))',
    );
    expect(JSON.parse(renderJson(r))).toMatchObject({ collectedAt: null, collectedAtFrom: 'unknown' });
    const blocks = renderBlocks(r, { now: new Date(NOW) });
    expect(JSON.stringify(blocks)).toContain('capture time unknown (no meta.json and no timestamp in the data)');
    expect(JSON.stringify(blocks)).not.toMatch(/NaN/);
    expect(blocks.text).toMatch(
      /^it-tkg-mgmt: healthy — 0 critical, 0 warning \(scanned <!date\^\d+\^\{date_short_pretty\} \{time\}\|[0-9: -]+ UTC>, capture time unknown\)$/,
    );
  });

  it('a recorded time renders as before', () => {
    expect(renderText(reportOf(healthyCluster()), { now: new Date('2023-11-30T17:00:40Z') })).toContain(
      '(data collected 2023-11-30T17:00:00Z, 40s ago)',
    );
  });

  it('age-based findings on a capture of unknown time say so, are low confidence, never critical, and propose nothing', async () => {
    // A StatefulSet pod Terminating on a NotReady node: critical with fixes when the time is known.
    const parts = {
      nodes: [node('w1', { ready: 'Unknown', sinceMin: 60 })],
      pods: [
        pod('db', 'pg-0', {
          nodeName: 'w1',
          deletionTimestamp: ago(50),
          deletionGracePeriodSeconds: 30,
          pvcNames: ['data-pg-0'],
          ownerReferences: [{ kind: 'StatefulSet', name: 'pg' }],
        }),
      ],
      coverage: allRead(),
    };
    const known = await scanSnapshot(buildSnapshot(parts), {
      history: new InMemoryHistory(),
      thresholds: DEFAULT_THRESHOLDS,
    });
    const knownPod = known.findings.find((f) => f.id === 'pod.stuck-terminating');
    expect([knownPod?.severity, knownPod?.remediations.length ? 'fixes' : 'none']).toEqual(['critical', 'fixes']);

    const r = await scanSnapshot(buildSnapshot({ ...parts, collectedAt: '', collectedAtFrom: 'unknown' }), {
      history: new InMemoryHistory(),
      thresholds: DEFAULT_THRESHOLDS,
    });
    const f = r.findings.find((x) => x.id === 'pod.stuck-terminating');
    expect(f).toMatchObject({
      severity: 'warning',
      confidence: 'low',
      remediations: [],
      missing: [UNKNOWN_TIME_MISSING],
    });
    expect(r.findings.filter((x) => x.severity === 'critical')).toEqual([]);
    // --now is a time the user stated: then ages are measured against it, as asked.
    const stated = await scanSnapshot(buildSnapshot({ ...parts, collectedAt: '', collectedAtFrom: 'unknown' }), {
      history: new InMemoryHistory(),
      thresholds: DEFAULT_THRESHOLDS,
      now: new Date(NOW),
    });
    expect(stated.findings.find((x) => x.id === 'pod.stuck-terminating')?.severity).toBe('critical');
  });
});
