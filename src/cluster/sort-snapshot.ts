import type { KubeObject, Snapshot } from './snapshot.js';

/**
 * Sort every array of a Snapshot in place: by namespace, name (events: then origin), then full
 * content. Used by loadDump and the live collector alike, so a live collection and a dump of
 * the same cluster are deep-equal whatever order the API server or the files gave.
 */
export function sortSnapshot(s: Snapshot): void {
  const kubeArrays = [
    s.nodes,
    s.namespaces,
    s.services,
    s.endpoints,
    s.deployments,
    s.daemonSets,
    s.statefulSets,
    s.replicaSets,
    s.validatingWebhooks,
    s.mutatingWebhooks,
    s.volumeAttachments,
    s.persistentVolumeClaims,
    ...(Object.values(s.capi) as KubeObject[][]),
  ];
  for (const a of kubeArrays) sortBy(a, (o) => [o.metadata.namespace ?? '', o.metadata.name]);
  sortBy(s.pods, (p) => [p.namespace, p.name]);
  sortBy(s.events, (e) => [e.namespace ?? '', e.name ?? '', e.origin]);
}

function sortBy<T>(items: T[], key: (item: T) => string[]): void {
  // The full-content tie-breaker is serialised only for items whose keys tie (rare): serialising
  // every one of 100,000 pods cost more than the rest of the sort.
  const keyed: { item: T; key: string[]; json?: string }[] = items.map((item) => ({ item, key: key(item) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const c = cmp(a.key[i] as string, b.key[i] as string);
      if (c) return c;
    }
    a.json ??= JSON.stringify(a.item);
    b.json ??= JSON.stringify(b.item);
    return cmp(a.json, b.json);
  });
  keyed.forEach((k, i) => (items[i] = k.item));
}

/** Plain code-unit order: locale-independent. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
