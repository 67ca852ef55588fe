/**
 * Two Cluster API clusters in one namespace of the management cluster: a fix proposed for one of them
 * is refused when its target is the other's (through the real propose path: signed click, propose
 * worker, the fake API server), and nothing is written to the neighbour's object.
 */
import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { deletingMachine, drainMessage, pdbRefusalLine } from '../../support/blocker-objects.js';
import { capiCluster } from '../../support/fleet-objects.js';
import { mhc } from '../../support/snapshot-b.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';

/** An object of cluster c1 (the test helpers' cluster) moved to cluster `to`. */
function ofCluster(o: KubeObject, to: string, name: string): KubeObject {
  const labels = { ...(o.metadata.labels ?? {}), 'cluster.x-k8s.io/cluster-name': to };
  return { ...o, metadata: { ...o.metadata, name, uid: `uid-${name}`, labels }, spec: { ...o.spec, clusterName: to } };
}
const draining = (name: string) =>
  deletingMachine({
    name,
    deletingMin: 45,
    stage: 'DrainingNode',
    message: drainMessage(44, [pdbRefusalLine(['shop/db-0'], 'db', 2, 2)]),
  });
const healthCheck = (name: string, cluster: string): KubeObject => {
  const m = mhc(name);
  return ofCluster({ ...m, apiVersion: 'cluster.x-k8s.io/v1beta2' }, cluster, name);
};

const bot = useApprovalBot({
  cluster: 'c1',
  objects: [
    capiCluster('ns1', 'c1'),
    capiCluster('ns1', 'c2'),
    ofCluster(draining('c1-drain'), 'c1', 'c1-drain'),
    ofCluster(draining('c2-drain'), 'c2', 'c2-drain'),
    healthCheck('c2-mhc', 'c2'),
  ],
});

describe('a fix proposed for one cluster never acts on a neighbour in the same namespace', () => {
  it('refuses a Machine of the other cluster, with nothing written to it', async () => {
    const r = await bot.propose({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'c2-drain' },
      label: 'Skip drain: c2-drain',
      risk: 'r',
    });
    expect(r.requestId).toBeUndefined();
    expect(JSON.stringify(r.ephemeral)).toContain(
      'Machine ns1/c2-drain belongs to cluster c2, not to c1 (cluster c1): refused, nothing was changed',
    );
    expect(bot.kube.writes.filter((w) => w.name === 'c2-drain')).toEqual([]);
  }, 60_000);

  it('refuses a MachineHealthCheck of the other cluster', async () => {
    const r = await bot.propose({
      action: 'mhc.pause-remediation',
      params: { namespace: 'ns1', name: 'c2-mhc' },
      label: 'Pause: c2-mhc',
      risk: 'r',
    });
    expect(r.requestId).toBeUndefined();
    expect(JSON.stringify(r.ephemeral)).toContain('MachineHealthCheck ns1/c2-mhc belongs to cluster c2, not to c1');
    expect(bot.kube.writes.filter((w) => w.name === 'c2-mhc')).toEqual([]);
  }, 60_000);

  it("proposes the same fix on its own cluster's Machine", async () => {
    const r = await bot.propose({
      action: 'machine.skip-drain',
      params: { namespace: 'ns1', name: 'c1-drain' },
      label: 'Skip drain: c1-drain',
      risk: 'r',
    });
    expect(r.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(r.message!.body.blocks)).toContain('server-side dry run (dryRun=All) accepted');
  }, 60_000);
});
