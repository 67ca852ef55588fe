import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { createEmptySnapshot } from '../../../src/cluster/snapshot.js';
import { writeDump } from '../../../src/cluster/dump/write-dump.js';

/**
 * Dump convention (docs/dump-format.md): DIR/etcd/<command>.err holds etcdctl's stderr (or a .json holds error text),
 * `dump` writes it when a live probe fails, and a cluster-info dump tree's etcd/apiserver pod logs are read.
 */
let tmp: string;
let n = 0;
const dir = () => path.join(tmp, `d-${++n}`);
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'etcd-errors-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function put(root: string, rel: string, text: string) {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

describe('DIR/etcd/<command>.err', () => {
  it('reads stderr per command; unhealthy endpoints only stderr names become health entries', async () => {
    const d = dir();
    await put(d, 'etcd/member-list.err', 'Error: context deadline exceeded\n');
    await put(
      d,
      'etcd/endpoint-status.err',
      'Failed to get the status of endpoint https://10.0.0.3:2379 (context deadline exceeded)\n',
    );
    await put(
      d,
      'etcd/endpoint-health.txt',
      'https://10.0.0.1:2379 is healthy: successfully committed proposal: took = 2ms\n',
    );
    await put(
      d,
      'etcd/endpoint-health.err',
      'https://10.0.0.3:2379 is unhealthy: failed to commit proposal: context deadline exceeded\nError: unhealthy cluster\n',
    );
    const s = await loadDump(d);
    expect(s.partial).toEqual([]);
    expect(s.etcd?.members).toEqual([]);
    expect(s.etcd?.errors).toEqual([
      { command: 'member list', error: 'context deadline exceeded' },
      { command: 'endpoint status', endpoint: 'https://10.0.0.3:2379', error: 'context deadline exceeded' },
      { command: 'endpoint health', error: 'unhealthy cluster' },
      { command: 'endpoint health', endpoint: 'https://10.0.0.3:2379', error: 'context deadline exceeded' },
    ]);
    expect(s.etcd?.health).toEqual([
      { endpoint: 'https://10.0.0.1:2379', health: true, took: '2ms' },
      { endpoint: 'https://10.0.0.3:2379', health: false, error: 'context deadline exceeded' },
    ]);
  });

  it('a member-list.json that holds etcdctl error text (2>&1) is an error, not an unreadable file', async () => {
    const d = dir();
    await put(d, 'etcd/member-list.json', 'Error: etcdserver: no leader\n');
    const s = await loadDump(d);
    expect(s.partial).toEqual([]);
    expect(s.etcd?.errors).toEqual([{ command: 'member list', error: 'etcdserver: no leader' }]);
  });

  it('broken JSON that is no etcdctl error stays a partial entry', async () => {
    const d = dir();
    await put(d, 'etcd/member-list.json', '{"members": [');
    const s = await loadDump(d);
    expect(s.partial.map((p) => p.source)).toEqual(['etcd/member-list.json']);
  });

  it('dump writes failed probes to <command>.err in etcdctl words and reads them back exactly', async () => {
    const s = createEmptySnapshot('lost', '2025-05-05T05:05:05.000Z', 'dump');
    s.etcd = {
      source: 'etcdctl',
      members: [],
      endpoints: [
        {
          endpoint: 'https://10.0.0.1:2379',
          memberId: '3319814642761637952',
          errors: ['etcdserver: no leader'],
          isLearner: false,
        },
      ],
      health: [{ endpoint: 'https://10.0.0.1:2379', health: false, took: '2000.000ms', error: 'deadline exceeded' }],
      alarms: [],
      errors: [
        {
          command: 'member list',
          endpoint: 'https://10.0.0.2:2379',
          error: 'unavailable: connect ECONNREFUSED 10.0.0.2:2379',
        },
        {
          command: 'endpoint status',
          endpoint: 'https://10.0.0.2:2379',
          error: 'unavailable: connect ECONNREFUSED 10.0.0.2:2379',
        },
        { command: 'alarm list', error: 'no healthy endpoint to ask (the alarm list needs quorum)' },
      ],
    };
    const out = dir();
    await writeDump(s, out);
    expect(await readFile(path.join(out, 'etcd', 'endpoint-status.err'), 'utf8')).toBe(
      'Failed to get the status of endpoint https://10.0.0.2:2379 (unavailable: connect ECONNREFUSED 10.0.0.2:2379)\n',
    );
    expect(await readFile(path.join(out, 'etcd', 'alarm-list.err'), 'utf8')).toBe(
      'Error: no healthy endpoint to ask (the alarm list needs quorum)\n',
    );
    expect(withoutCoverage(await loadDump(out))).toStrictEqual(s);
    // Written again without errors: the stale .err files go (they are the writer's own).
    delete s.etcd.errors;
    await writeDump(s, out);
    expect(withoutCoverage(await loadDump(out))).toStrictEqual(s);
  });
});

describe('kubectl cluster-info dump tree: etcd and kube-apiserver pod logs', () => {
  it('reads <ns>/<pod>/logs.txt of etcd-* and kube-apiserver-* pods only; a logs-only dump is a dump', async () => {
    const d = dir();
    await put(
      d,
      'kube-system/etcd-cp-1/logs.txt',
      '==== START logs for container etcd of pod kube-system/etcd-cp-1 ====\n{"level":"warn","ts":"2023-11-30T15:33:46.896Z","msg":"serving /health false; no leader"}\n',
    );
    await put(
      d,
      'kube-system/kube-apiserver-cp-1/logs.txt',
      'E1130 15:33:47.000000       1 watcher.go:1] watch chan error: etcdserver: no leader\n',
    );
    await put(d, 'kube-system/coredns-abc/logs.txt', 'etcdserver: no leader (not a control-plane pod: ignored)\n');
    await put(d, 'kube-system/etcd-cp-2/logs.txt', 'nothing about etcd here\n');
    const s = await loadDump(d);
    expect(s.controlPlaneLogs).toEqual([
      {
        namespace: 'kube-system',
        pod: 'etcd-cp-1',
        component: 'etcd',
        signals: [
          {
            kind: 'no-leader',
            line: '{"level":"warn","ts":"2023-11-30T15:33:46.896Z","msg":"serving /health false; no leader"}',
            time: '2023-11-30T15:33:46.896Z',
          },
        ],
      },
      {
        namespace: 'kube-system',
        pod: 'kube-apiserver-cp-1',
        component: 'kube-apiserver',
        signals: [
          {
            kind: 'etcd-unavailable',
            line: 'E1130 15:33:47.000000       1 watcher.go:1] watch chan error: etcdserver: no leader',
          },
        ],
      },
    ]);
  });

  it('reads only the end of a huge log, from a line start', async () => {
    const d = dir();
    const filler = `${'x'.repeat(99)}\n`.repeat(50_000); // 5 MB of noise before the last line
    await put(
      d,
      'kube-system/etcd-cp-1/logs.txt',
      `{"msg":"lost leader"}\n${filler}{"level":"info","msg":"raft.node: a elected leader a at term 3"}\n`,
    );
    const s = await loadDump(d);
    expect(s.controlPlaneLogs?.[0]?.signals.map((x) => x.kind)).toEqual(['leader']);
  });
});

/** `dump` records which kinds it read (meta.json coverage); this test is about the etcd part only. */
function withoutCoverage<T extends { coverage?: unknown }>(snap: T): Omit<T, 'coverage'> {
  const { coverage: _c, ...rest } = snap;
  return rest;
}
