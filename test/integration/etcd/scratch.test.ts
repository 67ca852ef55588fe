import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/collect-etcd.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';

describe('scratch', () => {
  let c: EtcdTestCluster;
  beforeAll(async () => { c = await startEtcdCluster(); });
  afterAll(async () => { await c?.stopAll(); });
  it('explores', async () => {
    const t0 = Date.now();
    console.log(JSON.stringify(await collectEtcd({ endpoints: c.endpoints, timeoutMs: 2000 }), null, 1), Date.now() - t0);
    await c.kill(1); await c.kill(2);
    const t1 = Date.now();
    console.log(JSON.stringify(await collectEtcd({ endpoints: c.endpoints, timeoutMs: 2000 }), null, 1), Date.now() - t1);
    await new Promise((r) => setTimeout(r, 3000));
    console.log(JSON.stringify(await collectEtcd({ endpoints: c.endpoints, timeoutMs: 2000 }), null, 1));
  });
});
