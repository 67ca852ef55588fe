import type { KubeObject } from '../../cluster/snapshot.js';
import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** Thrown for a selector kube-apiserver would reject with 400 BadRequest. */
export class SelectorError extends K8sHealthError {
  override readonly name = 'SelectorError';
  declare readonly code: 'E_SELECTOR';
  constructor(message: string) {
    super('E_SELECTOR', message);
  }
}

type Predicate = (obj: KubeObject) => boolean;

/**
 * A predicate for `labelSelector` and `fieldSelector` as kube-apiserver evaluates them.
 * Labels: `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`.
 * Fields: `path=v`, `path==v`, `path!=v` on dotted paths (metadata.name, metadata.namespace,
 * spec.nodeName, involvedObject.kind, ...); a missing field compares as "" like the real server.
 */
export function createObjectFilter(labelSelector?: string, fieldSelector?: string): Predicate {
  const checks: Predicate[] = [
    ...splitRequirements(labelSelector).map(parseLabelRequirement),
    ...splitRequirements(fieldSelector).map(parseFieldRequirement),
  ];
  return (obj) => checks.every((c) => c(obj));
}

/** Split on commas outside parentheses (`in (a,b)` keeps its list). */
function splitRequirements(selector: string | undefined): string[] {
  if (!selector || !selector.trim()) return [];
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  out.push(current.trim());
  if (out.some((r) => r === '')) throw new SelectorError(`invalid selector "${selector}": empty requirement`);
  return out;
}

function parseLabelRequirement(req: string): Predicate {
  const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(req);
  if (set) {
    const [, key, op, list] = set as unknown as [string, string, string, string];
    const values = list.split(',').map((v) => v.trim());
    return (o) => {
      const v = o.metadata?.labels?.[key];
      return op === 'in' ? v !== undefined && values.includes(v) : v === undefined || !values.includes(v);
    };
  }
  const eq = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s]*)$/.exec(req);
  if (eq) {
    const [, key, op, value] = eq as unknown as [string, string, string, string];
    return (o) => {
      const v = o.metadata?.labels?.[key];
      return op === '!=' ? v !== value : v === value;
    };
  }
  const exists = /^(!?)([^\s!=(),]+)$/.exec(req);
  if (exists) {
    const [, not, key] = exists as unknown as [string, string, string];
    return (o) => (o.metadata?.labels?.[key] !== undefined) !== (not === '!');
  }
  throw new SelectorError(`unable to parse requirement: "${req}"`);
}

function parseFieldRequirement(req: string): Predicate {
  const m = /^([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*)$/.exec(req);
  if (!m) throw new SelectorError(`invalid field selector: "${req}"`);
  const [, path, op, value] = m as unknown as [string, string, string, string];
  return (o) => {
    const v = fieldValue(o, path);
    return op === '!=' ? v !== value : v === value;
  };
}

function fieldValue(obj: KubeObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null
    ? ''
    : typeof cur === 'object'
      ? JSON.stringify(cur)
      : String(cur as string | number | boolean);
}
