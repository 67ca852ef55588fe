import type { Finding, SectionId } from '../finding.js';
import {
  FINGERPRINT_KINDS,
  type ClusterChange,
  type ClusterFingerprint,
  type FingerprintKind,
  type ObjectPrint,
} from './cluster-fingerprint.js';

/**
 * Findings that mean pods are being refused or never start: a webhook on pods is then on the failing path (seed 003).
 */
const PODS_REFUSED = new Set([
  'webhook.unavailable-blocking',
  'node.cni-not-initialized',
  'cni.pod-not-running',
  'capi.recreation-loop',
]);

/** The report sections each kind's changes can explain. */
const AREAS: Record<FingerprintKind, SectionId[]> = {
  ValidatingWebhookConfiguration: ['webhooks', 'nodes', 'workloads'],
  MutatingWebhookConfiguration: ['webhooks', 'nodes', 'workloads'],
  CustomResourceDefinition: ['webhooks'],
  Deployment: ['workloads', 'webhooks'],
  DaemonSet: ['workloads', 'nodes'],
  StatefulSet: ['workloads'],
  PodDisruptionBudget: ['machines', 'upgrades'],
  KubeadmControlPlane: ['controlplane', 'upgrades', 'etcd'],
  MachineDeployment: ['machines', 'upgrades'],
  MachineHealthCheck: ['machines'],
  Machine: ['machines', 'controlplane', 'upgrades', 'etcd'],
  Node: ['nodes', 'controlplane', 'machines'],
};

/**
 * What changed between the last healthy scan's fingerprint and now, ranked by how close each
 * change is to what is failing: rank 0 when a current warning/critical finding names the object (its
 * subject, a fix's params, `namespace/name` in its evidence) or when a webhook configuration that
 * intercepts Pod creation changed while pods are refused; rank 1 when a failing finding is in the area
 * the object can explain; rank 2 otherwise. Then kind order (webhooks first), then namespace/name. Pure.
 */
export function diffFingerprints(
  baseline: ClusterFingerprint,
  current: ClusterFingerprint,
  findings: readonly Finding[],
): ClusterChange[] {
  const key = (p: ObjectPrint) => `${p.kind}/${p.namespace ?? ''}/${p.name}`;
  const before = new Map(baseline.objects.map((p) => [key(p), p]));
  const now = new Map(current.objects.map((p) => [key(p), p]));
  const raw: Omit<ClusterChange, 'rank'>[] = [];
  const base = (p: ObjectPrint) => ({ kind: p.kind, ...(p.namespace ? { namespace: p.namespace } : {}), name: p.name });
  for (const [k, p] of now) {
    const old = before.get(k);
    if (!old) {
      raw.push({ ...base(p), change: 'added', detail: addedWords(p) });
      continue;
    }
    if (old.uid && p.uid && old.uid !== p.uid) {
      raw.push({ ...base(p), change: 'replaced', detail: `deleted and created again (uid ${old.uid} → ${p.uid})` });
      continue;
    }
    const parts: { change: ClusterChange['change']; detail: string }[] = [];
    if (JSON.stringify(old.images ?? []) !== JSON.stringify(p.images ?? []))
      parts.push({
        change: 're-imaged',
        detail: `image ${(old.images ?? []).join(', ') || '<none>'} → ${(p.images ?? []).join(', ') || '<none>'}`,
      });
    if (old.replicas !== p.replicas && (old.replicas !== undefined || p.replicas !== undefined))
      parts.push({ change: 'scaled', detail: `replicas ${old.replicas ?? '?'} → ${p.replicas ?? '?'}` });
    if (old.version !== p.version && (old.version !== undefined || p.version !== undefined))
      parts.push({ change: 'version-changed', detail: `version ${old.version ?? '?'} → ${p.version ?? '?'}` });
    if (JSON.stringify(old.rules ?? []) !== JSON.stringify(p.rules ?? []))
      parts.push({ change: 'rules-changed', detail: describeRuleChange(old.rules ?? [], p.rules ?? []) });
    if (!parts.length && old.generation !== undefined && p.generation !== undefined && old.generation !== p.generation)
      parts.push({ change: 'spec-changed', detail: `spec changed (generation ${old.generation} → ${p.generation})` });
    if (parts.length) raw.push({ ...base(p), change: parts[0]!.change, detail: parts.map((x) => x.detail).join('; ') });
  }
  for (const [k, p] of before)
    if (!now.has(k))
      raw.push({
        ...base(p),
        change: 'removed',
        detail: p.kind === 'CustomResourceDefinition' ? 'uninstalled' : 'removed',
      });

  const failing = findings.filter((f) => f.severity !== 'info');
  const named = namedObjects(failing);
  const podsRefused = failing.find((f) => PODS_REFUSED.has(f.id));
  const ranked = raw.map((c): ClusterChange => {
    const ref = `${c.namespace ? `${c.namespace}/` : ''}${c.name}`;
    const hit = named.find(
      (n) => n.key === `${c.kind}/${c.namespace ?? ''}/${c.name}` || (n.ref === ref && n.kind === undefined),
    );
    if (hit) return { ...c, rank: 0, why: `named by ${hit.id}` };
    const print =
      now.get(`${c.kind}/${c.namespace ?? ''}/${c.name}`) ?? before.get(`${c.kind}/${c.namespace ?? ''}/${c.name}`);
    if (podsRefused && print?.coversPods)
      return { ...c, rank: 0, why: `its webhooks intercept pod creation while pods are refused (${podsRefused.id})` };
    const area = failing.find((f) => AREAS[c.kind].includes(f.section));
    if (area) return { ...c, rank: 1, why: `same area as ${area.id}` };
    return { ...c, rank: 2 };
  });
  const order = (k: FingerprintKind) => FINGERPRINT_KINDS.indexOf(k);
  return ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      order(a.kind) - order(b.kind) ||
      `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`),
  );
}

function addedWords(p: ObjectPrint): string {
  switch (p.kind) {
    case 'CustomResourceDefinition':
      return 'installed';
    case 'ValidatingWebhookConfiguration':
    case 'MutatingWebhookConfiguration':
      return `added${p.coversPods ? ' (intercepts pod creation)' : ''}`;
    case 'Machine':
    case 'Node':
      return `created${p.version ? ` (${p.version})` : ''}`;
    default:
      return `added${p.images?.length ? ` (${p.images.join(', ')})` : ''}${p.replicas !== undefined ? `, replicas ${p.replicas}` : ''}`;
  }
}

/**
 * Webhooks added, removed or changed by name ("webhook validate.kyverno.svc-fail changed: failurePolicy Ignore →
 * Fail").
 */
function describeRuleChange(before: string[], after: string[]): string {
  const byName = (lines: string[]) => new Map(lines.map((l) => [l.split(' ')[0] ?? '', l]));
  const b = byName(before);
  const a = byName(after);
  const out: string[] = [];
  for (const [name, line] of a) {
    const old = b.get(name);
    if (old === undefined) out.push(`webhook ${name} added`);
    else if (old !== line) {
      const [, fpOld] = old.split(' ');
      const [, fpNew] = line.split(' ');
      out.push(
        `webhook ${name} changed${fpOld !== fpNew ? `: failurePolicy ${fpOld} → ${fpNew}` : ' (rules, selectors or service)'}`,
      );
    }
  }
  for (const name of b.keys()) if (!a.has(name)) out.push(`webhook ${name} removed`);
  return out.join('; ') || 'webhooks changed';
}

/** Objects the failing findings name: subjects, fix params, `namespace/name` in evidence. */
function namedObjects(findings: readonly Finding[]): { id: string; key?: string; ref?: string; kind?: string }[] {
  const out: { id: string; key?: string; ref?: string; kind?: string }[] = [];
  for (const f of findings) {
    out.push({
      id: f.id,
      key: `${f.subject.kind}/${f.subject.namespace ?? ''}/${f.subject.name}`,
      kind: f.subject.kind,
    });
    for (const r of f.remediations) {
      if (typeof r.params.name !== 'string') continue;
      const kind = r.action.startsWith('webhook.')
        ? String(r.params.kind ?? '')
        : r.action.startsWith('deployment.')
          ? 'Deployment'
          : undefined;
      if (kind)
        out.push({
          id: f.id,
          key: `${kind}/${typeof r.params.namespace === 'string' ? r.params.namespace : ''}/${r.params.name}`,
          kind,
        });
    }
    for (const line of [...f.evidence, f.cause ?? '']) {
      for (const m of line.matchAll(/\b([a-z0-9][-a-z0-9.]*\/[a-z0-9][-a-z0-9.]*)\b/g))
        out.push({ id: f.id, ref: m[1] });
    }
  }
  return out;
}
