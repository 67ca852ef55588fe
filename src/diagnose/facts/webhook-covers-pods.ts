/**
 * True when one webhook entry (an item of a configuration's `webhooks`) intercepts Pod creation:
 * a rule with apiGroups "" or "*", resources "pods", "*" or "*\/*", operations CREATE or "*".
 * Those are the webhooks that can refuse CNI pods on a new node (seed 003).
 */
export function webhookCoversPods(hook: unknown): boolean {
  const rules: unknown[] = Array.isArray((hook as { rules?: unknown })?.rules)
    ? (hook as { rules: unknown[] }).rules
    : [];
  return rules.some((raw) => {
    const r = (raw ?? {}) as { apiGroups?: unknown; resources?: unknown; operations?: unknown };
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    const groups = list(r.apiGroups);
    const resources = list(r.resources);
    const ops = list(r.operations);
    return (
      (groups.includes('') || groups.includes('*')) &&
      (resources.includes('pods') || resources.includes('*') || resources.includes('*/*')) &&
      (ops.includes('CREATE') || ops.includes('*'))
    );
  });
}
