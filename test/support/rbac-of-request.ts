import type { RbacNeed } from '../../src/approvals/actions/remediation-action.js';

/**
 * The RBAC permission a Kubernetes API request needs — (API group, resource, verb) — from its method
 * and path, as kube-apiserver's authorizer derives it; undefined for non-resource paths (discovery, /readyz).
 */
export function rbacOfRequest(
  method: string,
  pathname: string,
): { group: string; resource: string; verb: string } | undefined {
  const parts = pathname.split('/').filter(Boolean);
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) [group, rest] = ['', parts.slice(2)];
  else if (parts[0] === 'apis' && parts.length >= 4) [group, rest] = [parts[1]!, parts.slice(3)];
  else return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [resource, name] = rest;
  if (!resource) return undefined;
  const verb =
    method === 'GET'
      ? name
        ? 'get'
        : 'list'
      : method === 'POST'
        ? 'create'
        : method === 'PATCH'
          ? 'patch'
          : method === 'DELETE'
            ? 'delete'
            : method.toLowerCase();
  return { group, resource, verb };
}

/** Is `need` granted by any of `granted`? */
export function isGranted(
  need: { group: string; resource: string; verb: string },
  granted: readonly RbacNeed[],
): boolean {
  return granted.some(
    (g) => g.group === need.group && g.resource === need.resource && (g.verbs as readonly string[]).includes(need.verb),
  );
}
