import { KINDS } from '../../kinds.js';
import type { PathKind } from './dump-layout.js';

/** Names support bundles use for kinds, where they differ from the plural (troubleshoot cluster-resources/). */
const ALIASES: Record<string, string> = { pvcs: 'persistentvolumeclaims' };

/**
 * Kinds that real captures hold and the bot does not read: their files are not reported as unknown.
 * Plurals of `kubectl api-resources`, plus the file and folder names of troubleshoot support bundles
 * (collect/cluster_resources.go) and `kubectl cluster-info dump` (replication-controllers.json).
 */
const UNREAD = new Set([
  'apiservices',
  'auth-cani-list',
  'certificatesigningrequests',
  'clusterrolebindings',
  'clusterroles',
  'componentstatuses',
  'configmaps',
  'controllerrevisions',
  'cronjobs',
  'csidrivers',
  'csinodes',
  'custom-resource-definitions',
  'customresourcedefinitions',
  'endpointslices',
  'flowschemas',
  'groups',
  'horizontalpodautoscalers',
  'image-pull-secrets',
  'ingress',
  'ingresses',
  'jobs',
  'leases',
  'limitranges',
  'network-policy',
  'networkpolicies',
  'persistentvolumes',
  'pod-disruption-budgets',
  'poddisruptionbudgets',
  'priorityclasses',
  'prioritylevelconfigurations',
  'pvs',
  'replication-controllers',
  'replicationcontrollers',
  'resource-quota',
  'resourcequotas',
  'resources',
  'rolebindings',
  'roles',
  'runtimeclasses',
  'secrets',
  'serviceaccounts',
  'storage-classes',
  'storageclasses',
  'volumesnapshots',
]);

/**
 * The kind a file or folder name says (a plural, a kind, an alias), whether we read it or not; {} when it names none.
 */
export function kindFromName(raw: string): PathKind {
  const name = raw.toLowerCase();
  const plural = ALIASES[name] ?? name;
  const spec = KINDS.find((k) => k.plural === plural || k.kind.toLowerCase() === plural);
  if (spec) return { spec };
  return UNREAD.has(name) ? { unread: true } : {};
}

/** A file named after its kind (`pods.json`, `machines.cluster.x-k8s.io.yaml`): the name before the first dot. */
export function kindFromFileName(_dirs: readonly string[], base: string): PathKind | undefined {
  const byName = kindFromName(base.split('.')[0] ?? '');
  return byName.spec || byName.unread ? byName : undefined;
}
