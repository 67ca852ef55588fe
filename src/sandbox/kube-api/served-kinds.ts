import { KINDS, type KindSpec } from '../../cluster/kinds.js';

/** What the fake API server needs to know of a kind it serves (KINDS entries are ServedKinds). */
export type ServedKind = Pick<KindSpec, 'kind' | 'group' | 'versions' | 'plural' | 'namespaced' | 'optional'>;

/**
 * Kinds the bot never collects but `k8s-health enroll` creates (docs/fleet.md), and the bot reads in
 * a management cluster (the kubeconfig Secrets): served only with the `accessKinds` option, so
 * discovery stays as it was for every other test.
 */
export const ACCESS_KINDS: readonly ServedKind[] = [
  { kind: 'Secret', group: '', versions: ['v1'], plural: 'secrets', namespaced: true },
  { kind: 'ServiceAccount', group: '', versions: ['v1'], plural: 'serviceaccounts', namespaced: true },
  {
    kind: 'ClusterRole',
    group: 'rbac.authorization.k8s.io',
    versions: ['v1'],
    plural: 'clusterroles',
    namespaced: false,
  },
  {
    kind: 'ClusterRoleBinding',
    group: 'rbac.authorization.k8s.io',
    versions: ['v1'],
    plural: 'clusterrolebindings',
    namespaced: false,
  },
];

/** Every kind the fake can serve. */
export const SERVED_KINDS: readonly ServedKind[] = [...KINDS, ...ACCESS_KINDS];

/** The served kind of an object's `kind` (and apiVersion group when given). */
export function findServedKind(kind: string | undefined, apiVersion?: string): ServedKind | undefined {
  if (!kind) return undefined;
  const group = apiVersion && apiVersion.includes('/') ? apiVersion.split('/')[0] : apiVersion ? '' : undefined;
  return SERVED_KINDS.find((k) => k.kind === kind && (group === undefined || k.group === group));
}
