import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { createEmptySnapshot } from '../../src/cluster/snapshot.js';
import { addCorrelationKeys } from '../../src/diagnose/add-correlation-keys.js';
import { linkSymptoms } from '../../src/diagnose/link-symptoms.js';
import { fingerprint } from '../../src/diagnose/fingerprint.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

const key = async (dir: string, cluster: string | undefined, id: string) => {
  const report = await scanSnapshot(await loadDump(dir, cluster ? { cluster } : {}), {
    history: new InMemoryHistory(),
    thresholds: DEFAULT_THRESHOLDS,
  });
  return report.findings.find((f) => f.id === id)?.correlationKey;
};

describe('correlationKey: the fault in words that do not name the cluster', () => {
  it('an infrastructure error keeps its words and loses the Machine and cluster names', async () => {
    const k = await key(
      path.resolve('test/fixtures/dumps/three-clusters-one-namespace'),
      'search-qa',
      'capi.machine-stuck-provisioning',
    );
    expect(k).toBe('infrastructure CloningFailed: failed to clone VM: datastore ds-01 is full');
  });

  it('a webhook: its configuration and service, the same for every cluster that has it', async () => {
    const dir = path.resolve('examples/scenarios/s3-webhook-denies-outside-namespace');
    const a = await key(dir, 'shop-a', 'webhook.unavailable-blocking');
    expect(a).toBe(
      'webhook ValidatingWebhookConfiguration/gatekeeper-validating-webhook-configuration → gatekeeper-system/gatekeeper-webhook-service',
    );
    expect(await key(dir, 'shop-b', 'webhook.unavailable-blocking')).toBe(a);
  });

  it('a symptom carries none: only root causes are correlated', async () => {
    const dir = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
    expect(await key(dir, undefined, 'capi.recreation-loop')).toBeUndefined();
  });

  it('a CNI agent that cannot pull its image: the reason and the registry, not the pod or node', () => {
    const snapshot = createEmptySnapshot('c1', '2026-01-01T00:00:00Z', 'dump');
    const cni = (cluster: string, node: string): Finding => ({
      id: 'cni.pod-not-running',
      severity: 'warning',
      section: 'nodes',
      title: `CNI on node ${node}: antrea-agent-x ImagePullBackOff`,
      subject: { kind: 'Node', name: node },
      evidence: [
        `Pod kube-system/antrea-agent-${node}: phase=Pending, container waiting reason=ImagePullBackOff "Back-off pulling image "registry.corp.example:5000/antrea/antrea-ubuntu:v1.15""`,
      ],
      remediations: [],
      confidence: 'high',
      fingerprint: fingerprint(cluster, 'cni.pod-not-running', { kind: 'Node', name: node }),
    });
    const [a] = addCorrelationKeys([cni('c1', 'w-1')], snapshot);
    const [b] = addCorrelationKeys([cni('c2', 'md-0-abc')], snapshot);
    expect(a!.correlationKey).toBe('cni ImagePullBackOff registry registry.corp.example:5000');
    expect(b!.correlationKey).toBe(a!.correlationKey);

    // And the node whose network plugin is not ready is that pod's symptom.
    const notInit: Finding = {
      ...cni('c1', 'w-1'),
      id: 'node.cni-not-initialized',
      title: 'Node w-1: CNI not initialized',
      evidence: [],
      fingerprint: fingerprint('c1', 'node.cni-not-initialized', { kind: 'Node', name: 'w-1' }),
    };
    const linked = linkSymptoms([cni('c1', 'w-1'), notInit], snapshot);
    expect(linked[1]!.causedBy).toEqual([cni('c1', 'w-1').fingerprint]);
  });
});
