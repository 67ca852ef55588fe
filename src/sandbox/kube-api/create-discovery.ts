import type { ServedKind as KindSpec } from './served-kinds.js';
import type { KubeStore } from './kube-store.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * The discovery document for a path (`/version`, `/api`, `/api/v1`, `/apis`, `/apis/<g>`,
 * `/apis/<g>/<v>`), or undefined when the path is not a discovery path or the group/version
 * is not served (→ 404, exactly what clients see for a CRD that is not installed).
 */
export function createDiscovery(store: KubeStore, pathname: string, serverAddress: string): object | undefined {
  const parts = pathname.split('/').filter(Boolean);
  if (pathname === '/version') {
    return {
      major: '1',
      minor: '31',
      gitVersion: 'v1.31.4+fake',
      gitCommit: 'fake',
      gitTreeState: 'clean',
      buildDate: '2025-01-01T00:00:00Z',
      goVersion: 'go1.22.10',
      compiler: 'gc',
      platform: 'linux/amd64',
    };
  }
  if (pathname === '/api') {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }
  if (parts.length === 2 && parts[0] === 'api' && parts[1] === 'v1') return resourceList(store, '', 'v1');
  if (pathname === '/apis') {
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: groups(store).map(([name, versions]) => apiGroup(name, versions)),
    };
  }
  if (parts[0] === 'apis' && (parts.length === 2 || parts.length === 3)) {
    const entry = groups(store).find(([name]) => name === parts[1]);
    if (!entry) return undefined;
    if (parts.length === 2) return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(entry[0], entry[1]) };
    if (!entry[1].includes(parts[2]!)) return undefined;
    return resourceList(store, parts[1]!, parts[2]!);
  }
  return undefined;
}

/** Served groups (not core) with their versions, preferred first. */
function groups(store: KubeStore): [string, string[]][] {
  const out = new Map<string, string[]>();
  for (const spec of store.kinds) {
    if (!spec.group) continue;
    const versions = out.get(spec.group) ?? [];
    for (const v of store.versionsOf(spec)) if (!versions.includes(v)) versions.push(v);
    out.set(spec.group, versions);
  }
  for (const [g, versions] of out) {
    if (!versions.length) out.delete(g);
    const order = store.kinds.find((k) => k.group === g)?.versions ?? [];
    versions.sort((a, b) => rank(order, a) - rank(order, b));
  }
  return [...out.entries()];
}

function rank(order: string[], v: string): number {
  const i = order.indexOf(v);
  return i < 0 ? order.length : i;
}

function apiGroup(name: string, versions: string[]) {
  const gvs = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: gvs, preferredVersion: gvs[0] };
}

function resourceList(store: KubeStore, group: string, version: string) {
  const specs = store.kinds.filter((k: KindSpec) => k.group === group && store.versionsOf(k).includes(version));
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: specs.map((k) => ({
      name: k.plural,
      singularName: k.kind.toLowerCase(),
      namespaced: k.namespaced,
      kind: k.kind,
      verbs: VERBS,
    })),
  };
}
