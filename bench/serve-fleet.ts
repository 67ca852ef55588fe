import { readDumpObjects } from '../src/cluster/dump/read-dump-objects.js';
import type { KubeObject } from '../src/cluster/snapshot.js';
import { startFakeKubeApi, type FakeKubeApi } from '../test/support/fake-kube-api/start-fake-kube-api.js';

/**
 * Bench child (fleet target): COUNT small workload clusters, each its own fake Kubernetes
 * API server on a loopback port, all in this one process (the bench runs two of these so neither
 * nears the file-descriptor limit). Every cluster serves the same small healthy dump. IPC:
 * `stats` → per cluster {requests, lists, watches, open, openUnique}; `emit` {index} → that cluster's
 * first node goes NotReady (a watch event that opens an alert), answered with the wall-clock time;
 * `stop`. argv: DUMP_DIR COUNT.
 */
const [dir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const dump = await readDumpObjects(dir!);
const apis: FakeKubeApi[] = [];
for (let i = 0; i < count; i++) apis.push(await startFakeKubeApi({ objects: dump.workload }));

function stats() {
  return apis.map((api) => {
    let lists = 0;
    let watches = 0;
    for (const r of api.requests) {
      if (r.method !== 'GET') continue;
      if (r.query.watch === 'true' || r.query.watch === '1') watches += 1;
      else if (r.query.limit !== undefined && r.query.continue === undefined) lists += 1;
    }
    const open = api.openWatches();
    return { requests: api.requests.length, lists, watches, open: open.length, openUnique: new Set(open).size };
  });
}

function notReady(api: FakeKubeApi): KubeObject {
  const node = structuredClone(api.list('Node')[0]!);
  const since = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  node.status = {
    ...(node.status as object),
    conditions: [
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: since,
        lastHeartbeatTime: since,
      },
    ],
  };
  return node;
}

process.on('message', (msg: { id: number; type: string; index?: number }) => {
  if (msg.type === 'stats') process.send!({ id: msg.id, stats: stats() });
  else if (msg.type === 'emit') {
    const api = apis[msg.index!]!;
    const node = notReady(api);
    const at = Date.now();
    api.emit('MODIFIED', node);
    process.send!({ id: msg.id, at, node: node.metadata.name });
  } else if (msg.type === 'stop') {
    // The listener returns nothing (process.on ignores a promise): a failed close ends the child with its error.
    Promise.all(apis.map((a) => a.close())).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ id: 0, urls: apis.map((a) => a.url) });
