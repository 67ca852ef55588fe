import type { KubeObject, PodProjection, ContainerStateProjection } from './snapshot.js';

/** A record of a Pod as read (a dump or the API server): any field may be missing, null or of another type. */
type Loose = Record<string, unknown>;

/** The fields of a container status read here. */
interface RawContainerStatus {
  name?: unknown;
  ready?: unknown;
  restartCount?: unknown;
  state?: { waiting?: Loose; terminated?: Loose };
  lastState?: { terminated?: Loose };
}

/** Reduce a full Pod to the compact projection the Snapshot keeps (never whole pods: large clusters). */
export function projectPod(pod: KubeObject): PodProjection {
  const m = pod.metadata ?? { name: '' };
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const statuses: unknown[] = [...arr(status.initContainerStatuses), ...arr(status.containerStatuses)];
  const containers: ContainerStateProjection[] = statuses.map((raw) => {
    const c = (raw ?? {}) as RawContainerStatus; // a null entry in a dump must not sink the whole read
    const out: ContainerStateProjection = {
      name: typeof c.name === 'string' ? c.name : c.name == null ? '' : JSON.stringify(c.name),
      ready: c.ready === true,
      restartCount: num(c.restartCount) ?? 0,
    };
    if (c.state?.waiting) out.waiting = pick(c.state.waiting, ['reason', 'message']);
    if (c.state?.terminated) out.terminated = pick(c.state.terminated, ['reason', 'exitCode', 'finishedAt']);
    if (c.lastState?.terminated)
      out.lastTerminated = pick(c.lastState.terminated, ['reason', 'exitCode', 'finishedAt']);
    return out;
  });
  let memory = 0;
  for (const c of arr(spec.containers) as ({ resources?: { requests?: { memory?: unknown } } } | null)[])
    memory += parseQuantity(c?.resources?.requests?.memory) ?? 0;
  const p: PodProjection = {
    namespace: m.namespace ?? 'default',
    name: m.name,
    pvcNames: (arr(spec.volumes) as ({ persistentVolumeClaim?: { claimName?: unknown } } | null)[])
      .map((v) => v?.persistentVolumeClaim?.claimName)
      .filter((n): n is string => typeof n === 'string'),
    conditions: (arr(status.conditions) as (Loose | null)[]).map((c) =>
      pick<PodProjection['conditions'][number]>(c, ['type', 'status', 'reason', 'message', 'lastTransitionTime']),
    ) as PodProjection['conditions'],
    containers,
  };
  assign(p, 'uid', m.uid);
  assign(p, 'nodeName', spec.nodeName);
  assign(p, 'phase', status.phase);
  assign(p, 'reason', status.reason);
  assign(p, 'message', status.message);
  assign(p, 'creationTimestamp', m.creationTimestamp);
  assign(p, 'deletionTimestamp', m.deletionTimestamp);
  assign(p, 'deletionGracePeriodSeconds', m.deletionGracePeriodSeconds);
  if (m.labels && Object.keys(m.labels).length) p.labels = m.labels;
  if (m.ownerReferences?.length)
    p.ownerReferences = m.ownerReferences.map(
      (o) => pick(o, ['apiVersion', 'kind', 'name', 'uid', 'controller']) as typeof o,
    );
  if (memory > 0) p.memoryRequestBytes = memory;
  assign(p, 'priorityClassName', spec.priorityClassName);
  return p;
}

const UNITS: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  m: 1e-3,
};

/** Parse a Kubernetes resource quantity ("512Mi", "1G", "100m") to a number; undefined when unparseable. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(q.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  const unit = match[2] ?? '';
  if (!Number.isFinite(n)) return undefined;
  if (unit === '') return n;
  const f = UNITS[unit];
  return f === undefined ? undefined : n * f;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
/** The listed fields that are set, typed as the projection declares them (values are copied as read). */
function pick<T extends object>(from: object | null | undefined, keys: (keyof T & string)[]): T {
  const o = from as Loose | null | undefined;
  const out: Loose = {};
  for (const k of keys) if (o?.[k] !== undefined && o?.[k] !== null) out[k] = o[k];
  return out as T;
}
function assign<T extends object>(target: T, key: keyof T & string, value: unknown): void {
  if (value !== undefined && value !== null && value !== '') (target as Record<string, unknown>)[key] = value;
}
