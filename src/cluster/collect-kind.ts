import type { KubeConfig } from '@kubernetes/client-node';
import { addToSnapshot } from './add-to-snapshot.js';
import type { ServedVersions } from './collect-served-versions.js';
import type { KindSpec } from './kinds.js';
import { KubeError } from './kube-error.js';
import { listAll } from './list-all.js';
import type { Snapshot } from './snapshot.js';

/** One cluster the collector talks to. */
export interface KubeTarget {
  role: 'workload' | 'management';
  kc: KubeConfig;
  /** From discovery; undefined when discovery failed (then every KINDS version is tried in turn). */
  served?: ServedVersions;
}

export interface CollectKindOptions {
  pageSize: number;
  timeoutMs?: number;
  /** Restrict a namespaced kind to this namespace (management.namespace for CAPI kinds). */
  namespace?: string;
}

/**
 * List one kind from one cluster into the Snapshot. Never throws: a kind that cannot be read
 * becomes a partial entry saying what to do; an optional CRD that is not installed is skipped.
 */
export async function collectKind(target: KubeTarget, spec: KindSpec, snapshot: Snapshot, opts: CollectKindOptions): Promise<void> {
  const resource = spec.group ? `${spec.plural}.${spec.group}` : spec.plural;
  const where = opts.namespace ? ` in namespace ${opts.namespace}` : '';
  const what = `list ${resource}${where}`;
  const source = target.role === 'management' ? `${what} (management cluster)` : what;
  const served = target.served?.get(spec.group);
  const candidates = target.served ? spec.versions.filter((v) => served?.includes(v)) : spec.versions;
  if (candidates.length === 0) {
    if (!spec.optional) snapshot.partial.push({ source, error: `${resource} is not served by this API server (looked for ${spec.versions.join(', ')})` });
    return;
  }
  for (const [i, version] of candidates.entries()) {
    const base = spec.group ? `/apis/${spec.group}/${version}` : `/api/${version}`;
    const path = `${base}${opts.namespace && spec.namespaced ? `/namespaces/${encodeURIComponent(opts.namespace)}` : ''}/${spec.plural}`;
    try {
      await listAll(target.kc, path, {
        pageSize: opts.pageSize,
        timeoutMs: opts.timeoutMs,
        what,
        onItem: (item, list) => {
          // Items of a list carry no apiVersion/kind on the wire; set them as `kubectl get -o json` does.
          item.apiVersion ??= list.apiVersion ?? (spec.group ? `${spec.group}/${version}` : version);
          item.kind ??= spec.kind;
          addToSnapshot(snapshot, spec, item, target.role);
        },
      });
      return;
    } catch (err) {
      const notFound = err instanceof KubeError && err.code === 'E_KUBE_NOT_FOUND';
      if (notFound && i < candidates.length - 1) continue; // discovery was stale or failed: try the next version
      if (notFound && spec.optional) return; // CRD not installed (e.g. TanzuKubernetesCluster on plain CAPI)
      snapshot.partial.push({ source, error: describe(err, spec, resource, where) });
      return;
    }
  }
}

/** The partial-entry text: what failed and how to fix it. */
function describe(err: unknown, spec: KindSpec, resource: string, where: string): string {
  if (err instanceof KubeError && err.code === 'E_KUBE_FORBIDDEN') {
    const helmValue = spec.group.includes('cluster.x-k8s.io') || spec.group === 'run.tanzu.vmware.com' ? 'rbac.capi' : 'rbac';
    return `cannot list ${resource}${where}: forbidden — grant list on it to the bot's ServiceAccount (helm value ${helmValue})`;
  }
  return err instanceof Error ? err.message : String(err);
}
