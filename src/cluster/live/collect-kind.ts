import type { KubeConfig } from '@kubernetes/client-node';
import { addToSnapshot } from '../add-to-snapshot.js';
import type { ServedVersions } from './collect-served-versions.js';
import type { KindSpec } from '../kinds.js';
import { KubeError } from './kube-error.js';
import { listAll } from './list-all.js';
import type { KubeObject, Snapshot } from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';

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

/** Where a kind was listed, and the list's resourceVersion (a watch resumes from there). */
export interface ListedKind {
  path: string;
  resourceVersion?: string;
}

/**
 * List one kind from one cluster, handing every item (with apiVersion and kind set, as
 * `kubectl get -o json` does) to `onItem`. Tries the served versions in turn on 404.
 * Returns 'absent' for an optional CRD that is not installed; throws KubeError for the rest
 * (including `E_KUBE_NOT_SERVED` when the server serves none of the versions we read).
 */
export async function listKind(
  target: KubeTarget,
  spec: KindSpec,
  opts: CollectKindOptions,
  onItem: (item: KubeObject) => void,
): Promise<ListedKind | 'absent'> {
  const resource = spec.group ? `${spec.plural}.${spec.group}` : spec.plural;
  const what = `list ${resource}${opts.namespace ? ` in namespace ${opts.namespace}` : ''}`;
  const served = target.served?.get(spec.group);
  const candidates = target.served ? spec.versions.filter((v) => served?.includes(v)) : spec.versions;
  if (candidates.length === 0) {
    if (spec.optional) return 'absent';
    throw new KubeError(
      'E_KUBE_NOT_SERVED',
      `${resource} is not served by this API server (looked for ${spec.versions.join(', ')})`,
    );
  }
  for (const [i, version] of candidates.entries()) {
    const path = kindPath(spec, version, opts.namespace);
    try {
      const r = await listAll(target.kc, path, {
        pageSize: opts.pageSize,
        timeoutMs: opts.timeoutMs,
        what,
        onItem: (item, list) => {
          // Items of a list carry no apiVersion/kind on the wire; set them as `kubectl get -o json` does.
          item.apiVersion ??= list.apiVersion ?? (spec.group ? `${spec.group}/${version}` : version);
          item.kind ??= spec.kind;
          onItem(item);
        },
      });
      return { path, resourceVersion: r.resourceVersion };
    } catch (err) {
      const notFound = err instanceof KubeError && err.code === 'E_KUBE_NOT_FOUND';
      if (notFound && i < candidates.length - 1) continue; // discovery was stale or failed: try the next version
      if (notFound && spec.optional) return 'absent'; // CRD not installed (e.g. TanzuKubernetesCluster on plain CAPI)
      throw err;
    }
  }
  return 'absent'; // unreachable: the loop returns or throws
}

/** The collection path of a kind at a version, optionally within one namespace. */
export function kindPath(spec: KindSpec, version: string, namespace?: string): string {
  const base = spec.group ? `/apis/${spec.group}/${version}` : `/api/${version}`;
  return `${base}${namespace && spec.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${spec.plural}`;
}

/**
 * List one kind from one cluster into the Snapshot. Never throws: a kind that cannot be read
 * becomes a partial entry saying what to do (and that text is returned, for the snapshot's coverage);
 * an optional CRD that is not installed is skipped (read: there are none).
 */
export async function collectKind(
  target: KubeTarget,
  spec: KindSpec,
  snapshot: Snapshot,
  opts: CollectKindOptions,
): Promise<string | undefined> {
  try {
    await listKind(target, spec, opts, (item) => addToSnapshot(snapshot, spec, item, target.role));
    return undefined;
  } catch (err) {
    const error = describeKindError(err, spec, opts.namespace);
    snapshot.partial.push({ source: kindSource(target.role, spec, opts.namespace), error });
    return error;
  }
}

/** "list machines.cluster.x-k8s.io in namespace x (management cluster)": the partial entry's source. */
export function kindSource(role: KubeTarget['role'], spec: KindSpec, namespace?: string): string {
  const resource = spec.group ? `${spec.plural}.${spec.group}` : spec.plural;
  const what = `list ${resource}${namespace ? ` in namespace ${namespace}` : ''}`;
  return role === 'management' ? `${what} (management cluster)` : what;
}

/** The partial-entry text: what failed and how to fix it. */
export function describeKindError(err: unknown, spec: KindSpec, namespace?: string): string {
  const resource = spec.group ? `${spec.plural}.${spec.group}` : spec.plural;
  const where = namespace ? ` in namespace ${namespace}` : '';
  if (err instanceof KubeError && err.code === 'E_KUBE_FORBIDDEN') {
    const helmValue =
      spec.group.includes('cluster.x-k8s.io') || spec.group === 'run.tanzu.vmware.com' ? 'rbac.capi' : 'rbac';
    return `cannot list ${resource}${where}: forbidden — grant list on it to the bot's ServiceAccount (helm value ${helmValue})`;
  }
  return describeError(err);
}
