import type { FakeKubeApi } from './fake-kube-api/start-fake-kube-api.js';
import type { KubeObject } from '../../src/cluster/snapshot.js';

/** The kinds listed at a cluster's fake API (`plural[.group]`): what a watcher of that cluster watches. */
export function listedKinds(api: FakeKubeApi): string[] {
  const kinds = new Set<string>();
  for (const r of api.requests) {
    if (r.method !== 'GET' || r.query.watch !== undefined || r.query.limit === undefined) continue;
    const seg = r.path.split('/').filter(Boolean);
    kinds.add(seg[0] === 'apis' ? `${seg.at(-1)}.${seg[1]}` : seg.at(-1)!);
  }
  return [...kinds].sort();
}

/** One open watch per listed kind: exactly one process watches the cluster (a second would repeat every kind). */
export function watchedOnce(api: FakeKubeApi): boolean {
  const open = api.openWatches();
  return open.length > 0 && JSON.stringify(open) === JSON.stringify(listedKinds(api));
}

/**
 * Poll `probe` every 100 ms until it returns something truthy, and return that; past `timeoutMs` fail
 * naming what was awaited, with `context()` (the processes' output, say) to read why.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  opts: { timeoutMs: number; context: () => string },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${opts.context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The cluster's first Node with its Ready condition set (ten minutes old): what a watcher sees when a node fails. */
export function notReadyNode(api: FakeKubeApi, status: string, reason: string, message: string): KubeObject {
  const node = structuredClone(api.list('Node')[0]!);
  const since = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  node.status = {
    ...(node.status as object),
    conditions: [{ type: 'Ready', status, reason, message, lastTransitionTime: since, lastHeartbeatTime: since }],
  };
  return node;
}
