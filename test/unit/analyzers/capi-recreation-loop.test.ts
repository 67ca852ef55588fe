import { describe, expect, it } from '@jest/globals';
import { capiRecreationLoopAnalyzer } from '../../../src/diagnose/analyzers/capi-recreation-loop.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import type { HistoryView } from '../../../src/diagnose/history.js';
import { ago, buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { CNI_MSG, endpoints, event, node, service, webhookConfig, workerMachine } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>, h?: HistoryView) =>
  capiRecreationLoopAnalyzer.analyze(buildContext(s, h));
const ms = {
  apiVersion: 'cluster.x-k8s.io/v1beta1',
  kind: 'MachineSet',
  metadata: { namespace: 'ns1', name: 'c1-md-0-7d9f8' },
  spec: { replicas: 1 },
};
const kcp = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlane',
  metadata: { namespace: 'ns1', name: 'c1-cp' },
  spec: { replicas: 3 },
};
const cpMachine = (name: string, createdMin: number, deletingMin?: number) => ({
  ...workerMachine(name, { createdMin, ...(deletingMin !== undefined ? { deletingMin } : {}) }),
  metadata: {
    ...workerMachine(name, { createdMin, ...(deletingMin !== undefined ? { deletingMin } : {}) }).metadata,
    ownerReferences: [{ kind: 'KubeadmControlPlane', name: 'c1-cp', controller: true }],
  },
});
const created = (name: string, min: number) =>
  event({
    origin: 'management',
    type: 'Normal',
    reason: 'SuccessfulCreate',
    message: `Created machine "${name}"`,
    involvedObject: { kind: 'MachineSet', namespace: 'ns1', name: 'c1-md-0-7d9f8' },
    firstTimestamp: ago(min),
    lastTimestamp: ago(min),
  });

describe('capi.recreation-loop', () => {
  it('benign: a rolling upgrade replaces 3 old control-plane machines once each', () => {
    const s = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp],
        machines: [
          cpMachine('c1-cp-aaaaa', 40),
          cpMachine('c1-cp-bbbbb', 25),
          cpMachine('c1-cp-ccccc', 10),
          cpMachine('c1-cp-old01', 5000, 2),
        ],
      },
    });
    const history: HistoryView = {
      scans: [
        {
          at: ago(30),
          rollouts: [],
          findings: [],
          machines: ['c1-cp-old02', 'c1-cp-old03'].map((name) => ({
            namespace: 'ns1',
            name,
            owner: 'KubeadmControlPlane/c1-cp',
            controlPlane: true,
            deleting: false,
            creationTimestamp: ago(5000),
          })),
        },
      ],
    };
    expect(run(s, history)).toEqual([]);
  });

  it('single snapshot: creation events every ~12 min beyond replicas=1 make a loop (MachineSet subject)', () => {
    const s = buildSnapshot({
      capi: {
        machineSets: [ms],
        machines: [workerMachine('c1-md-0-7d9f8-eeeee', { createdMin: 3, node: 'c1-md-0-7d9f8-eeeee' })],
      },
      events: [
        created('c1-md-0-7d9f8-aaaaa', 51),
        created('c1-md-0-7d9f8-bbbbb', 39),
        created('c1-md-0-7d9f8-ccccc', 27),
        created('c1-md-0-7d9f8-ddddd', 15),
        created('c1-md-0-7d9f8-eeeee', 3),
      ],
    });
    const [f] = run(s);
    expect(f?.severity).toBe('critical');
    expect(f?.subject).toEqual({ kind: 'MachineSet', namespace: 'ns1', name: 'c1-md-0-7d9f8' });
    expect(f?.title).toContain('4 machine replacements');
    expect(f?.title).toContain('about one every 12m');
  });

  it('history: machines seen earlier (created within the window) and gone now count; cause is the blocking webhook', () => {
    const sighting = (name: string, createdMin: number, atMin: number) => ({
      at: ago(atMin),
      rollouts: [],
      findings: [],
      machines: [
        {
          namespace: 'ns1',
          name,
          owner: 'MachineSet/c1-md-0-7d9f8',
          controlPlane: false,
          deleting: false,
          creationTimestamp: ago(createdMin),
          phase: 'Running',
          nodeName: name,
        },
      ],
    });
    const history: HistoryView = {
      scans: [
        sighting('c1-md-0-7d9f8-aaaaa', 45, 40),
        sighting('c1-md-0-7d9f8-bbbbb', 32, 28),
        sighting('c1-md-0-7d9f8-ccccc', 20, 16),
      ],
    };
    const s = buildSnapshot({
      nodes: [node('c1-md-0-7d9f8-ddddd', { ready: 'False', message: CNI_MSG, sinceMin: 6 })],
      capi: {
        machineSets: [ms],
        machines: [workerMachine('c1-md-0-7d9f8-ddddd', { createdMin: 7, node: 'c1-md-0-7d9f8-ddddd' })],
      },
      validatingWebhooks: [
        webhookConfig('ValidatingWebhookConfiguration', 'gatekeeper-validating-webhook-configuration', [
          {
            name: 'validation.gatekeeper.sh',
            svcNs: 'gatekeeper-system',
            svc: 'gatekeeper-webhook-service',
            resources: ['*'],
          },
        ]),
      ],
      services: [service('gatekeeper-system', 'gatekeeper-webhook-service')],
      endpoints: [endpoints('gatekeeper-system', 'gatekeeper-webhook-service', 0)],
      events: [
        event({
          reason: 'FailedCreate',
          message:
            'Error creating: Internal error occurred: failed calling webhook "validation.gatekeeper.sh": failed to call webhook: Post "https://gatekeeper-webhook-service.gatekeeper-system.svc:443/v1/admit?timeout=3s": no endpoints available for service "gatekeeper-webhook-service"',
          involvedObject: { kind: 'DaemonSet', namespace: 'kube-system', name: 'antrea-agent' },
        }),
      ],
    });
    const [f] = run(s, history);
    expect(f?.severity).toBe('critical');
    expect(f?.cause).toContain('ValidatingWebhookConfiguration gatekeeper-validating-webhook-configuration');
    expect(f?.cause).toContain('gatekeeper-system/gatekeeper-webhook-service');
    expect(f?.causedBy).toEqual([
      fingerprint(s.cluster, 'webhook.unavailable-blocking', {
        kind: 'ValidatingWebhookConfiguration',
        name: 'gatekeeper-validating-webhook-configuration',
      }),
    ]);
    expect(f?.remediations[0]).toMatchObject({
      action: 'webhook.suspend',
      params: { kind: 'ValidatingWebhookConfiguration', name: 'gatekeeper-validating-webhook-configuration' },
    });
    expect(f?.evidence.join('\n')).toContain('c1-md-0-7d9f8-aaaaa seen at');
  });

  it('below loopReplacements (2 replacements) stays quiet; KCP owner found via Deleting short-lived machines', () => {
    const s = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp],
        machines: [cpMachine('c1-cp-aaaaa', 30, 15), cpMachine('c1-cp-bbbbb', 14, 1), cpMachine('c1-cp-ccccc', 1)],
      },
    });
    expect(run(s)).toEqual([]);
    const s3 = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp],
        machines: [
          cpMachine('c1-cp-aaaaa', 45, 30),
          cpMachine('c1-cp-bbbbb', 30, 15),
          cpMachine('c1-cp-ccccc', 14, 1),
          cpMachine('c1-cp-ddddd', 1),
        ],
      },
    });
    expect(run(s3)[0]?.subject).toEqual({ kind: 'KubeadmControlPlane', namespace: 'ns1', name: 'c1-cp' });
  });

  it('machines without status or timestamps do not throw', () => {
    expect(
      run(buildSnapshot({ capi: { machineSets: [ms], machines: [{ metadata: { name: 'x', namespace: 'ns1' } }] } })),
    ).toEqual([]);
  });

  describe('the next replacement already under way counts (flag before the third recreation completes)', () => {
    const twoDone = [cpMachine('c1-cp-aaaaa', 30, 15), cpMachine('c1-cp-bbbbb', 18, 4)];
    it('two replacements + the newest machine without a Node 9 minutes after creation → loop', () => {
      const s = buildSnapshot({
        capi: { kubeadmControlPlanes: [kcp], machines: [...twoDone, cpMachine('c1-cp-ccccc', 9)] },
      });
      const [f] = run(s);
      expect(f?.severity).toBe('critical');
      expect(f?.evidence.join('\n')).toContain(
        'next replacement under way: Machine ns1/c1-cp-ccccc has no Node 9m after creation',
      );
    });
    it('two replacements + the newest machine with a NotReady Node (CNI) → loop', () => {
      const s = buildSnapshot({
        nodes: [node('c1-cp-ccccc', { ready: 'False', message: CNI_MSG, sinceMin: 2 })],
        capi: {
          kubeadmControlPlanes: [kcp],
          machines: [
            ...twoDone,
            { ...cpMachine('c1-cp-ccccc', 4), status: { phase: 'Running', nodeRef: { name: 'c1-cp-ccccc' } } },
          ],
        },
      });
      expect(run(s)[0]?.evidence.join('\n')).toContain('has Node c1-cp-ccccc Ready=False');
    });
    it('quiet when the newest machine is healthy, still booting, or when nothing was replaced before', () => {
      const healthy = buildSnapshot({
        nodes: [node('c1-cp-ccccc', { ready: 'True', sinceMin: 2 })],
        capi: {
          kubeadmControlPlanes: [kcp],
          machines: [
            ...twoDone,
            { ...cpMachine('c1-cp-ccccc', 9), status: { phase: 'Running', nodeRef: { name: 'c1-cp-ccccc' } } },
          ],
        },
      });
      expect(run(healthy)).toEqual([]);
      const booting = buildSnapshot({
        capi: { kubeadmControlPlanes: [kcp], machines: [...twoDone, cpMachine('c1-cp-ccccc', 3)] },
      });
      expect(run(booting)).toEqual([]);
      const firstFailure = buildSnapshot({
        capi: { kubeadmControlPlanes: [kcp], machines: [cpMachine('c1-cp-ccccc', 9)] },
      });
      expect(run(firstFailure)).toEqual([]);
    });
  });

  // Defect class 12: the finding clears once the loop has stopped.
  describe('a loop that has stopped clears at once, not after the loop window', () => {
    const sighting = (name: string, createdMin: number, atMin: number) => ({
      at: ago(atMin),
      rollouts: [],
      findings: [],
      machines: [
        {
          namespace: 'ns1',
          name,
          owner: 'MachineSet/c1-md-0-7d9f8',
          controlPlane: false,
          deleting: false,
          creationTimestamp: ago(createdMin),
          phase: 'Running',
          nodeName: name,
        },
      ],
    });
    // Three machines created and gone every ~12 min within the last hour: a loop by history alone.
    const history: HistoryView = {
      scans: [
        sighting('c1-md-0-7d9f8-aaaaa', 60, 55),
        sighting('c1-md-0-7d9f8-bbbbb', 48, 43),
        sighting('c1-md-0-7d9f8-ccccc', 36, 31),
      ],
    };
    const withCurrent = (createdMin: number, readyMin: number, ready: 'True' | 'False' = 'True') =>
      buildSnapshot({
        nodes: [node('c1-md-0-7d9f8-ddddd', { ready, sinceMin: readyMin })],
        capi: {
          machineSets: [ms],
          machines: [workerMachine('c1-md-0-7d9f8-ddddd', { createdMin, node: 'c1-md-0-7d9f8-ddddd' })],
        },
      });

    it('still looping: the current machine is NotReady → critical', () => {
      expect(run(withCurrent(20, 18, 'False'), history)[0]?.severity).toBe('critical');
    });
    it('the current machine Ready for 8 min, under one ~12 min cycle → still reported', () => {
      expect(run(withCurrent(24, 8), history)[0]?.severity).toBe('critical');
    });
    it('the current machine Ready for 20 min, longer than one cycle → cleared', () => {
      expect(run(withCurrent(24, 20), history)).toEqual([]);
    });
    it('owner gone (MachineSet deleted, no machines left) → cleared', () => {
      expect(run(buildSnapshot({ capi: { machineSets: [] } }), history)).toEqual([]);
    });
    it('owner scaled to 0 with no machines left → cleared', () => {
      expect(run(buildSnapshot({ capi: { machineSets: [{ ...ms, spec: { replicas: 0 } }] } }), history)).toEqual([]);
    });
    it('a machine still being deleted keeps it open', () => {
      const s = buildSnapshot({
        nodes: [node('c1-md-0-7d9f8-ddddd', { ready: 'True', sinceMin: 40 })],
        capi: {
          machineSets: [ms],
          machines: [
            workerMachine('c1-md-0-7d9f8-ddddd', { createdMin: 45, node: 'c1-md-0-7d9f8-ddddd' }),
            workerMachine('c1-md-0-7d9f8-eeeee', { createdMin: 10, deletingMin: 1 }),
          ],
        },
      });
      expect(run(s, history)[0]?.severity).toBe('critical');
    });
  });
});
