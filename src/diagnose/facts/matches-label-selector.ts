/**
 * Kubernetes label-selector semantics (matchLabels + matchExpressions In/NotIn/Exists/DoesNotExist).
 * An absent or empty selector matches everything, as the API server treats webhook and MHC selectors.
 * An unknown operator matches nothing (never guess that something is covered).
 */
export function matchesLabelSelector(selector: unknown, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  if (!selector || typeof selector !== 'object') return true;
  const s = selector as { matchLabels?: Record<string, unknown>; matchExpressions?: unknown[] };
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) if (l[k] !== String(v)) return false;
  for (const raw of Array.isArray(s.matchExpressions) ? s.matchExpressions : []) {
    const e = (raw ?? {}) as { key?: string; operator?: string; values?: unknown[] };
    if (typeof e.key !== 'string') return false;
    const values = (Array.isArray(e.values) ? e.values : []).map(String);
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(l[e.key] as string)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(l[e.key] as string)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
