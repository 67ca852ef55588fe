/**
 * Times a cluster writes into an object when something happens to it (defect class 8): a
 * capture without meta.json was taken after the newest of them, so the newest is the best known
 * capture time. Only times that record a past event count: never deletionTimestamp (deletion
 * request + grace period, so in the future), lease durations or certificate expiries.
 */
const CONDITION_TIMES = ['lastHeartbeatTime', 'lastTransitionTime', 'lastUpdateTime', 'lastProbeTime'] as const;
const EVENT_TIMES = [
  'firstTimestamp',
  'lastTimestamp',
  'eventTime',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
] as const;

/**
 * The newest such time in one object (ms since epoch), or undefined. Read before managedFields are
 * dropped (add-to-snapshot.ts), because managedFields[].time is often the newest write of all.
 * `notAfterMs` ignores times beyond it (a corrupt or hand-edited year 9999 must not become "now").
 */
export function findNewestTime(obj: unknown, notAfterMs = Number.POSITIVE_INFINITY): number | undefined {
  if (!isRecord(obj)) return undefined;
  let newest: number | undefined;
  const see = (v: unknown) => {
    if (typeof v !== 'string' || v.length < 10 || v.length > 40) return;
    const t = Date.parse(v);
    if (Number.isNaN(t) || t > notAfterMs) return;
    if (newest === undefined || t > newest) newest = t;
  };
  const meta = obj.metadata;
  if (isRecord(meta)) {
    see(meta.creationTimestamp);
    for (const mf of arr(meta.managedFields)) if (isRecord(mf)) see(mf.time);
  }
  // core/v1 and events.k8s.io/v1 Events.
  for (const k of EVENT_TIMES) see(obj[k]);
  if (isRecord(obj.series)) see(obj.series.lastObservedTime);
  const status = obj.status;
  if (isRecord(status)) {
    // Cluster API keeps a second condition list: v1beta2 conditions under status.v1beta2 of an object a
    // CAPI v1.9/v1.10 controller serves as v1beta1, the old ones under status.deprecated.v1beta1 of a
    // v1beta2 object. Either may hold the newest transition (defect classes 4 and 8).
    const lists = [status.conditions, isRecord(status.v1beta2) ? status.v1beta2.conditions : undefined];
    if (isRecord(status.deprecated) && isRecord(status.deprecated.v1beta1))
      lists.push(status.deprecated.v1beta1.conditions);
    for (const list of lists) for (const c of arr(list)) if (isRecord(c)) for (const k of CONDITION_TIMES) see(c[k]);
    see(status.startTime);
    see(status.lastUpdated); // OpenShift Machine, CAPI v1beta1 Machine
    for (const cs of [...arr(status.containerStatuses), ...arr(status.initContainerStatuses)]) {
      if (!isRecord(cs)) continue;
      for (const state of [cs.state, cs.lastState]) {
        if (!isRecord(state)) continue;
        for (const s of [state.running, state.terminated]) {
          if (!isRecord(s)) continue;
          see(s.startedAt);
          see(s.finishedAt);
        }
      }
    }
  }
  // coordination.k8s.io Lease: renewed every few seconds by kubelets and leader elections.
  if (isRecord(obj.spec) && typeof obj.spec.holderIdentity === 'string') see(obj.spec.renewTime);
  return newest;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
