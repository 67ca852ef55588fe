/**
 * What a rendered chart grants, per ServiceAccount: the rules of every Role/ClusterRole bound to it,
 * flattened to `group/resource` → sorted verbs, a verb limited by resourceNames written
 * `verb[name1,name2]` (names sorted) so a pinned grant never compares equal to an unpinned one.
 */

// Rendered manifests are untyped YAML until a model validates them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = { kind: string; metadata: { name: string; namespace?: string }; [key: string]: any };

/** One RBAC rule as rendered. */
export interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

/** `group/resource` (`/nodes` for the core group) → sorted verbs, pinned ones as `verb[names]`. */
export type Grants = Record<string, string[]>;

/** How a verb reads in {@link Grants}. */
export function grantedVerb(verb: string, resourceNames?: readonly string[]): string {
  return resourceNames?.length ? `${verb}[${[...resourceNames].sort().join(',')}]` : verb;
}

/** Add one grant, keeping the verbs sorted and unique. */
export function addGrant(out: Grants, group: string, resource: string, verb: string): void {
  const key = `${group}/${resource}`;
  out[key] = [...new Set([...(out[key] ?? []), verb])].sort();
}

/** The resource rules of a role as Grants (non-resource URLs are left out: see {@link nonResourceGrants}). */
export function ruleGrants(rules: Rule[]): Grants {
  const out: Grants = {};
  for (const r of rules) {
    for (const g of r.apiGroups ?? [])
      for (const res of r.resources ?? [])
        for (const v of r.verbs) addGrant(out, g, res, grantedVerb(v, r.resourceNames));
  }
  return out;
}

/** Non-resource URL rules of a role, `url` → verbs. */
export function nonResourceGrants(rules: Rule[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of rules)
    for (const u of r.nonResourceURLs ?? []) out[u] = [...new Set([...(out[u] ?? []), ...r.verbs])].sort();
  return out;
}

/**
 * `namespace/name` of every ServiceAccount subject → the rules bound to it (ClusterRoleBindings and
 * RoleBindings of the rendered chart). A ServiceAccount with no binding is absent.
 */
export function rulesBySubject(ms: Manifest[]): Record<string, Rule[]> {
  const roles = new Map(
    ms
      .filter((m) => m.kind === 'ClusterRole' || m.kind === 'Role')
      .map((m) => [`${m.kind}/${m.metadata.name}`, (m.rules ?? []) as Rule[]]),
  );
  const out: Record<string, Rule[]> = {};
  for (const b of ms.filter((m) => m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding')) {
    const rules = roles.get(`${b.roleRef.kind}/${b.roleRef.name}`);
    if (!rules)
      throw new Error(
        `${b.kind} ${b.metadata.name} refers to ${b.roleRef.kind} ${b.roleRef.name}, which the chart does not render`,
      );
    for (const s of b.subjects ?? []) {
      if (s.kind !== 'ServiceAccount')
        throw new Error(`${b.kind} ${b.metadata.name} binds a ${s.kind}: the chart binds ServiceAccounts only`);
      const key = `${s.namespace}/${s.name}`;
      out[key] = [...(out[key] ?? []), ...rules];
    }
  }
  return out;
}
