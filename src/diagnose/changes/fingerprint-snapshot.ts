import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { webhookCoversPods } from '../facts/webhook-covers-pods.js';
import type { ClusterFingerprint, FingerprintKind, ObjectPrint } from './cluster-fingerprint.js';

/**
 * Bounds that keep one fingerprint small (Redis value, JSON report): objects per kind, images per object, characters
 * per rule line.
 */
export const MAX_OBJECTS_PER_KIND = 2000;
const MAX_IMAGES = 8;
const MAX_RULE_CHARS = 400;

/**
 * The fingerprint of a snapshot: webhook configurations, CRDs, workload controllers,
 * PodDisruptionBudgets, Cluster API control planes / MachineDeployments / MachineHealthChecks / Machines,
 * and Nodes, each reduced to identity, generation, images, replicas, version and webhook rules. Pods and
 * events are not in it (they churn by design). Pure and sorted, so the same snapshot prints the same.
 */
export function fingerprintSnapshot(snapshot: Snapshot, at: string): ClusterFingerprint {
  const out: ObjectPrint[] = [];
  let truncated = 0;
  const add = (
    kind: FingerprintKind,
    objects: KubeObject[],
    extra: (o: KubeObject) => Partial<ObjectPrint> = () => ({}),
  ) => {
    const sorted = [...objects].sort((a, b) =>
      `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
    truncated += Math.max(0, sorted.length - MAX_OBJECTS_PER_KIND);
    for (const o of sorted.slice(0, MAX_OBJECTS_PER_KIND)) out.push(printOf(kind, o, extra(o)));
  };
  add('ValidatingWebhookConfiguration', snapshot.validatingWebhooks, webhookPrint);
  add('MutatingWebhookConfiguration', snapshot.mutatingWebhooks, webhookPrint);
  add('CustomResourceDefinition', snapshot.customResourceDefinitions);
  add('Deployment', snapshot.deployments, workloadPrint);
  add('DaemonSet', snapshot.daemonSets, workloadPrint);
  add('StatefulSet', snapshot.statefulSets, workloadPrint);
  add('PodDisruptionBudget', snapshot.podDisruptionBudgets);
  add('KubeadmControlPlane', snapshot.capi.kubeadmControlPlanes, (o) => withNumbers(o.spec?.replicas, o.spec?.version));
  add('MachineDeployment', snapshot.capi.machineDeployments, (o) =>
    withNumbers(o.spec?.replicas, o.spec?.template?.spec?.version),
  );
  add('MachineHealthCheck', snapshot.capi.machineHealthChecks);
  add('Machine', snapshot.capi.machines, (o) => withNumbers(undefined, o.spec?.version));
  add('Node', snapshot.nodes);
  const fp: ClusterFingerprint = { cluster: snapshot.cluster, at, objects: out };
  if (truncated) fp.truncated = truncated;
  return fp;
}

function printOf(kind: FingerprintKind, o: KubeObject, extra: Partial<ObjectPrint>): ObjectPrint {
  const p: ObjectPrint = { kind, name: o.metadata.name };
  if (o.metadata.namespace) p.namespace = o.metadata.namespace;
  if (o.metadata.uid) p.uid = o.metadata.uid;
  if (o.metadata.resourceVersion) p.resourceVersion = o.metadata.resourceVersion;
  if (typeof o.metadata.generation === 'number') p.generation = o.metadata.generation;
  return { ...p, ...extra };
}

function withNumbers(replicas: unknown, version: unknown): Partial<ObjectPrint> {
  const out: Partial<ObjectPrint> = {};
  if (typeof replicas === 'number') out.replicas = replicas;
  if (typeof version === 'string') out.version = version;
  return out;
}

function workloadPrint(o: KubeObject): Partial<ObjectPrint> {
  const containers = [
    ...(o.spec?.template?.spec?.initContainers ?? []),
    ...(o.spec?.template?.spec?.containers ?? []),
  ] as { image?: unknown }[];
  const images = [...new Set(containers.map((c) => c?.image).filter((i): i is string => typeof i === 'string'))]
    .sort()
    .slice(0, MAX_IMAGES);
  const out = withNumbers(
    o.kind === 'DaemonSet'
      ? undefined
      : (o.spec?.replicas ?? (o.kind === 'Deployment' || o.kind === 'StatefulSet' ? 1 : undefined)),
    undefined,
  );
  if (images.length) out.images = images;
  return out;
}

/** A field as text: a string as it is, any other value (a dump can hold any JSON) as JSON. */
function fieldText(v: unknown, absent: string): string {
  return v === undefined || v === null ? absent : typeof v === 'string' ? v : JSON.stringify(v);
}

function webhookPrint(o: KubeObject): Partial<ObjectPrint> {
  const hooks = (Array.isArray(o.webhooks) ? o.webhooks : []) as Record<string, unknown>[];
  const rules = hooks.map((h) => {
    const svc = (h.clientConfig as { service?: { namespace?: string; name?: string }; url?: string } | undefined) ?? {};
    const target = svc.service ? `${svc.service.namespace}/${svc.service.name}` : (svc.url ?? '');
    const line = [
      fieldText(h.name, ''),
      fieldText(h.failurePolicy, 'Fail'),
      JSON.stringify(h.rules ?? []),
      JSON.stringify(h.namespaceSelector ?? {}),
      JSON.stringify(h.objectSelector ?? {}),
      target,
    ].join(' ');
    return line.length > MAX_RULE_CHARS ? `${line.slice(0, MAX_RULE_CHARS)}…` : line;
  });
  return { rules, coversPods: hooks.some(webhookCoversPods) };
}
