import { KINDS, type KindSpec } from '../kinds.js';

/** What a dump file's path says about the kind of the kind-less objects in it. */
export interface PathKind {
  /** A kind we read. */
  spec?: KindSpec;
  /** The path names a kind we do not read (ConfigMaps, Jobs…): its kind-less items are ignored silently. */
  unread?: boolean;
}

/** Names support bundles use for kinds, where they differ from the plural (troubleshoot cluster-resources/). */
const ALIASES: Record<string, string> = { pvcs: 'persistentvolumeclaims' };

/**
 * Kinds that real captures hold and the bot does not read: their files are not reported as unknown.
 * Plurals of `kubectl api-resources`, plus the file and folder names of troubleshoot support bundles
 * (collect/cluster_resources.go) and `kubectl cluster-info dump` (replication-controllers.json).
 */
const UNREAD = new Set([
  'apiservices', 'auth-cani-list', 'certificatesigningrequests', 'clusterrolebindings', 'clusterroles', 'componentstatuses', 'configmaps',
  'controllerrevisions', 'cronjobs', 'csidrivers', 'csinodes', 'custom-resource-definitions', 'customresourcedefinitions', 'endpointslices',
  'flowschemas', 'groups', 'horizontalpodautoscalers', 'image-pull-secrets', 'ingress', 'ingresses', 'jobs', 'leases', 'limitranges',
  'network-policy', 'networkpolicies', 'persistentvolumes', 'pod-disruption-budgets', 'poddisruptionbudgets', 'priorityclasses',
  'prioritylevelconfigurations', 'pvs', 'replication-controllers', 'replicationcontrollers', 'resource-quota', 'resourcequotas', 'resources',
  'rolebindings', 'roles', 'runtimeclasses', 'secrets', 'serviceaccounts', 'storage-classes', 'storageclasses', 'volumesnapshots',
]);

/** sonobuoy results: resources/cluster/<group>_<version>_<plural>.json, resources/ns/<ns>/<group>_<version>_<plural>.json. */
const SONOBUOY_NAME = /^([a-z0-9.-]+)_(v\d+(?:(?:alpha|beta)\d+)?)_([a-z0-9]+)$/;

/**
 * The kind a dump file holds, from its path, for items that carry no `kind` themselves (typed lists
 * printed by kubectl or troubleshoot have empty TypeMeta). Understands:
 * - `pods.json`, `machines.cluster.x-k8s.io.yaml`, `nodes.json` (kubectl cluster-info dump, our dump);
 * - `core_v1_pods.json`, `admissionregistration.k8s.io_v1_validatingwebhookconfigurations.json` (sonobuoy);
 * - `cluster-resources/pods/<namespace>.json`, `cluster-resources/pvcs/<namespace>.json` (troubleshoot).
 */
export function kindFromPath(filePath: string): PathKind {
  const parts = filePath.split(/[\\/]/).filter(Boolean);
  const base = (parts.pop() ?? '').replace(/\.(json|ya?ml|txt)$/i, '');
  const sonobuoy = SONOBUOY_NAME.exec(base.toLowerCase());
  if (sonobuoy) {
    const group = sonobuoy[1] === 'core' ? '' : sonobuoy[1]!;
    const spec = KINDS.find((k) => k.plural === sonobuoy[3] && k.group === group);
    return spec ? { spec } : { unread: true };
  }
  const byName = fromName(base.split('.')[0] ?? '');
  if (byName.spec || byName.unread) return byName;
  // troubleshoot: one file per namespace inside a folder named after the kind.
  return fromName((parts.pop() ?? '').split('.')[0] ?? '');
}

function fromName(raw: string): PathKind {
  const name = raw.toLowerCase();
  const plural = ALIASES[name] ?? name;
  const spec = KINDS.find((k) => k.plural === plural || k.kind.toLowerCase() === plural);
  if (spec) return { spec };
  return UNREAD.has(name) ? { unread: true } : {};
}
