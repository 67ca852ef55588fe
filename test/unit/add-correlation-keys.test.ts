import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

const key = async (dir: string, cluster: string | undefined, id: string) => {
  const report = await scanSnapshot(await loadDump(dir, cluster ? { cluster } : {}), { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
  return report.findings.find((f) => f.id === id)?.correlationKey;
};

describe('correlationKey: the fault in words that do not name the cluster', () => {
  it('an infrastructure error keeps its words and loses the Machine and cluster names', async () => {
    const k = await key(path.resolve('test/fixtures/dumps/three-clusters-one-namespace'), 'search-qa', 'capi.machine-stuck-provisioning');
    expect(k).toBe('infrastructure CloningFailed: failed to clone VM: datastore ds-01 is full');
  });

  it('a webhook: its configuration and service, the same for every cluster that has it', async () => {
    const dir = path.resolve('examples/scenarios/s3-webhook-denies-outside-namespace');
    const a = await key(dir, 'shop-a', 'webhook.unavailable-blocking');
    expect(a).toBe('webhook ValidatingWebhookConfiguration/gatekeeper-validating-webhook-configuration → gatekeeper-system/gatekeeper-webhook-service');
    expect(await key(dir, 'shop-b', 'webhook.unavailable-blocking')).toBe(a);
  });

  it('a symptom carries none: only root causes are correlated', async () => {
    const dir = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
    expect(await key(dir, undefined, 'capi.recreation-loop')).toBeUndefined();
  });
});
