import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../cluster/snapshot.js';
import { findServedKind, type ServedKind } from './served-kinds.js';
import type { KubeStore } from './kube-store.js';

const TOKEN_TYPE = 'kubernetes.io/service-account-token';
const SA_ANNOTATION = 'kubernetes.io/service-account.name';

export interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  nonResourceURLs?: string[];
}

/** The fake's token controller and RBAC authorizer for ServiceAccount tokens (FakeKubeApiOptions.accessKinds). */
export interface AccessControl {
  /**
   * `system:serviceaccount:NS:NAME` for a bearer token of a token Secret this fake filled; undefined for any other
   * caller (admin).
   */
  userOf(authorization: string | undefined): string | undefined;
  /**
   * The denial message when `user` (a ServiceAccount) may not do this request, as kube-apiserver's RBAC
   * authorizer decides it from the ClusterRoleBindings naming it; undefined when allowed. Discovery,
   * /version and health paths are open to every authenticated caller (system:discovery).
   */
  deny(user: string, method: string, pathname: string, query: Record<string, string>): string | undefined;
  /** A created object as the controllers would complete it: a token Secret gets `data.token`. */
  complete(spec: ServedKind, obj: KubeObject): KubeObject;
  /** The rules RBAC grants `user`: its ClusterRoleBindings' ClusterRoles plus what every authenticated user gets. */
  rulesOf(user: string): Rule[];
}

/**
 * What kube-apiserver's default bindings give every authenticated user (system:basic-user,
 * system:discovery, system:public-info-viewer): the self reviews and the discovery paths.
 */
export const AUTHENTICATED_RULES: readonly Rule[] = [
  {
    apiGroups: ['authorization.k8s.io'],
    resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    verbs: ['create'],
  },
  {
    nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/readyz', '/version', '/version/'],
    verbs: ['get'],
  },
];

/** Whether `rules` allow the verb on the resource (RBAC's match: `*` is every value). */
export function rulesAllow(rules: readonly Rule[], verb: string, group: string, resource: string): boolean {
  const has = (list: string[] | undefined, v: string) => !!list && (list.includes(v) || list.includes('*'));
  return rules.some((r) => has(r.apiGroups, group) && has(r.resources, resource) && has(r.verbs, verb));
}

export function createAccessControl(store: KubeStore): AccessControl {
  const secrets = findServedKind('Secret', 'v1')!;
  const bindings = findServedKind('ClusterRoleBinding', 'rbac.authorization.k8s.io/v1')!;
  const roles = findServedKind('ClusterRole', 'rbac.authorization.k8s.io/v1')!;

  const rulesOf = (user: string): Rule[] => {
    const [, , saNamespace, saName] = user.split(':');
    const rules: Rule[] = [...AUTHENTICATED_RULES];
    for (const b of store.list(bindings)) {
      const binding = b as KubeObject & {
        subjects?: { kind?: string; name?: string; namespace?: string }[];
        roleRef?: { kind?: string; name?: string };
      };
      if (
        !binding.subjects?.some((s) => s.kind === 'ServiceAccount' && s.name === saName && s.namespace === saNamespace)
      )
        continue;
      if (binding.roleRef?.kind !== 'ClusterRole' || !binding.roleRef.name) continue;
      const role = store.get(roles, undefined, binding.roleRef.name) as (KubeObject & { rules?: Rule[] }) | undefined;
      rules.push(...(role?.rules ?? []));
    }
    return rules;
  };

  return {
    rulesOf,
    userOf(authorization) {
      const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
      if (!m) return undefined;
      const token = Buffer.from(m[1]!, 'utf8').toString('base64');
      const s = store
        .list(secrets)
        .find(
          (x) =>
            (x as { type?: string }).type === TOKEN_TYPE &&
            (x as { data?: Record<string, string> }).data?.token === token,
        );
      const sa = s?.metadata.annotations?.[SA_ANNOTATION];
      return s && sa ? `system:serviceaccount:${s.metadata.namespace}:${sa}` : undefined;
    },
    deny(user, method, pathname, query) {
      const parts = pathname.split('/').filter(Boolean);
      const isResource = (parts[0] === 'api' && parts.length >= 3) || (parts[0] === 'apis' && parts.length >= 4);
      if (!isResource)
        return method === 'GET'
          ? undefined
          : `forbidden: User "${user}" cannot ${method.toLowerCase()} path "${pathname}"`;
      const [group, rest0] = parts[0] === 'api' ? ['', parts.slice(2)] : [parts[1]!, parts.slice(3)];
      let rest = rest0;
      let namespace: string | undefined;
      if (rest[0] === 'namespaces' && rest.length >= 3) {
        namespace = rest[1];
        rest = rest.slice(2);
      }
      const [resource, name] = rest;
      const verb =
        method === 'GET'
          ? name
            ? 'get'
            : query.watch === 'true' || query.watch === '1'
              ? 'watch'
              : 'list'
          : method === 'POST'
            ? 'create'
            : method === 'PATCH'
              ? 'patch'
              : method === 'DELETE'
                ? 'delete'
                : method.toLowerCase();
      if (rulesAllow(rulesOf(user), verb, group, resource!)) return undefined;
      const what = group ? `${resource}.${group}` : resource;
      const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
      return `${what}${name ? ` "${name}"` : ''} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`;
    },
    complete(spec, obj) {
      const o = obj as KubeObject & { type?: string; data?: Record<string, string> };
      if (spec !== secrets || o.type !== TOKEN_TYPE || !o.metadata.annotations?.[SA_ANNOTATION]) return obj;
      return {
        ...o,
        data: {
          ...(o.data ?? {}),
          token: Buffer.from(`fake-sa-token-${randomBytes(16).toString('hex')}`).toString('base64'),
          namespace: Buffer.from(obj.metadata.namespace ?? '').toString('base64'),
        },
      } as KubeObject;
    },
  };
}
