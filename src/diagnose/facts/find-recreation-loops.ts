import type { EventProjection, KubeObject, Snapshot } from '../../cluster/snapshot.js';
import type { HistoryView, MachineSighting } from '../history.js';
import { formatAge } from './age.js';
import { quoteEvent } from './quote-event.js';

/** Machine churn of one controller owner within the loop window (seed 003). */
export interface RecreationLoop {
  owner: { kind: string; namespace: string; name: string };
  /** Machines created within the window (names seen + unnamed event counts). */
  created: number;
  /** Machines deleted (or Deleting) within the window. */
  deleted: number;
  /**
   * Replacements that point at a loop: machines created AND gone/Deleting again within the window,
   * machines remediated by a MachineHealthCheck, or creations beyond the owner's replicas.
   * One create plus one delete of an OLD machine (a rolling upgrade) is not a replacement.
   */
  replacements: number;
  desiredReplicas?: number;
  /** Known creation times in the window, oldest first. */
  creationTimes: string[];
  /** Mean minutes between creations, when at least two are known. */
  intervalMinutes?: number;
  /** Nodes of the owner's current machines (the "new nodes" that keep failing). */
  nodeNames: string[];
  evidence: string[];
  since?: string;
  /**
   * The owner's newest machine, created within the window, that is already failing (its Node
   * NotReady, or no Node after a few minutes): the next replacement is under way. Counting it lets
   * a 12-minute loop be flagged before its third recreation completes.
   */
  underway?: { machine: string; why: string };
}

/** A new machine without a Node for this long is failing, not booting. */
const NO_NODE_MINUTES = 5;

interface Churn {
  owner: RecreationLoop['owner'];
  desired?: number;
  created: Map<string, string | undefined>;
  unnamedCreates: number;
  deleted: Set<string>;
  unnamedDeletes: number;
  shortLived: Set<string>;
  remediated: Set<string>;
  nodeNames: Set<string>;
  /** Current, not-deleting machines created in the window, newest last. */
  fresh: KubeObject[];
  evidence: string[];
  events: EventProjection[];
}

const OWNER_KINDS = new Set(['MachineSet', 'KubeadmControlPlane']);

/**
 * Per controller owner (MachineSet / KubeadmControlPlane): machines created and deleted within
 * `windowMinutes`, from the snapshot (creationTimestamps of current machines, Deleting machines,
 * SuccessfulCreate/SuccessfulDelete events and MHC remediation events with their counts) and from
 * earlier scans (a machine seen earlier and gone now). Works from a single snapshot; history adds
 * the machines that vanished between scans. Every owner with churn is returned, worst first.
 */
export function findRecreationLoops(
  snapshot: Snapshot,
  history: HistoryView,
  opts: { windowMinutes: number; now: Date },
): RecreationLoop[] {
  const now = opts.now.getTime();
  const start = now - opts.windowMinutes * 60000;
  const inWindow = (iso: string | undefined) => {
    const t = iso ? Date.parse(iso) : NaN;
    return !Number.isNaN(t) && t >= start;
  };
  const churn = new Map<string, Churn>();
  const get = (kind: string, namespace: string, name: string): Churn => {
    const key = `${kind}/${namespace}/${name}`;
    let c = churn.get(key);
    if (!c) {
      c = {
        owner: { kind, namespace, name },
        created: new Map(),
        unnamedCreates: 0,
        deleted: new Set(),
        unnamedDeletes: 0,
        shortLived: new Set(),
        remediated: new Set(),
        nodeNames: new Set(),
        fresh: [],
        evidence: [],
        events: [],
      };
      churn.set(key, c);
    }
    return c;
  };
  for (const o of [
    ...snapshot.capi.machineSets.map((x) => ['MachineSet', x] as const),
    ...snapshot.capi.kubeadmControlPlanes.map((x) => ['KubeadmControlPlane', x] as const),
  ]) {
    const [kind, obj] = o;
    const c = get(kind, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
    if (typeof obj.spec?.replicas === 'number') c.desired = obj.spec.replicas;
  }
  const ownerOf = (m: KubeObject) => {
    const ref = (m.metadata?.ownerReferences ?? []).find((r) => r.controller !== false && OWNER_KINDS.has(r.kind));
    return ref ? get(ref.kind, m.metadata?.namespace ?? '', ref.name) : undefined;
  };
  // Gone machines keep their name only: map it to an owner by "<owner>-<5 chars>" (CAPI's naming).
  const ownerByName = (namespace: string | undefined, machine: string): Churn | undefined => {
    let best: Churn | undefined;
    for (const c of churn.values()) {
      if (namespace && c.owner.namespace && namespace !== c.owner.namespace) continue;
      if (machine.startsWith(`${c.owner.name}-`) && /^[a-z0-9]{5}$/.test(machine.slice(c.owner.name.length + 1))) {
        if (!best || c.owner.name.length > best.owner.name.length) best = c;
      }
    }
    return best;
  };

  const current = new Set<string>();
  for (const m of snapshot.capi.machines) {
    const name = m.metadata?.name ?? '';
    current.add(`${m.metadata?.namespace ?? ''}/${name}`);
    const c = ownerOf(m) ?? ownerByName(m.metadata?.namespace, name);
    if (!c) continue;
    const created = m.metadata?.creationTimestamp;
    const node = m.status?.nodeRef?.name;
    if (node && !m.metadata?.deletionTimestamp) c.nodeNames.add(node);
    if (inWindow(created)) c.created.set(name, created);
    if (inWindow(created) && !m.metadata?.deletionTimestamp) c.fresh.push(m);
    if (m.metadata?.deletionTimestamp) {
      if (inWindow(m.metadata.deletionTimestamp) || !m.metadata.deletionTimestamp) c.deleted.add(name);
      if (inWindow(created)) {
        c.shortLived.add(name);
        c.evidence.push(
          `Machine ${m.metadata?.namespace ?? ''}/${name}: created ${created} (${formatAge(now - Date.parse(created as string))} ago), Deleting since ${m.metadata.deletionTimestamp}, phase=${m.status?.phase ?? '<none>'}`,
        );
      }
    }
  }

  // Earlier scans: a machine seen within the window and gone now was deleted.
  const gone = new Map<string, { s: MachineSighting; at: string }>();
  for (const scan of history.scans) {
    if (!inWindow(scan.at)) continue;
    for (const s of scan.machines) {
      const key = `${s.namespace}/${s.name}`;
      if (!current.has(key)) gone.set(key, { s, at: scan.at });
    }
  }
  for (const { s, at } of gone.values()) {
    const [kind, ownerName] = s.owner.includes('/') ? (s.owner.split('/', 2) as [string, string]) : ['', ''];
    const c = OWNER_KINDS.has(kind) ? get(kind, s.namespace, ownerName) : ownerByName(s.namespace, s.name);
    if (!c) continue;
    c.deleted.add(s.name);
    if (inWindow(s.creationTimestamp)) c.created.set(s.name, s.creationTimestamp);
    if (!s.creationTimestamp || inWindow(s.creationTimestamp)) {
      c.shortLived.add(s.name);
      c.evidence.push(
        `Machine ${s.namespace}/${s.name} seen at ${at} (phase ${s.phase ?? '<none>'}${s.nodeName ? `, node ${s.nodeName}` : ''}${s.creationTimestamp ? `, created ${s.creationTimestamp}` : ''}), gone now`,
      );
    }
  }

  for (const ev of snapshot.events) {
    const n = countInWindow(ev, start);
    if (!n) continue;
    const io = ev.involvedObject;
    const msg = ev.message ?? '';
    if (
      (ev.reason === 'SuccessfulCreate' || ev.reason === 'SuccessfulDelete') &&
      io.kind &&
      OWNER_KINDS.has(io.kind) &&
      io.name
    ) {
      const c = get(io.kind, io.namespace ?? ev.namespace ?? '', io.name);
      const m = /(?:Created|Deleted) machine:? "?([a-z0-9.-]+)"?/i.exec(msg);
      if (ev.reason === 'SuccessfulCreate') {
        if (m?.[1]) {
          if (!c.created.has(m[1])) c.created.set(m[1], ev.firstTimestamp);
        } else c.unnamedCreates += n;
      } else if (m?.[1]) c.deleted.add(m[1]);
      else c.unnamedDeletes += n;
      c.events.push(ev);
    } else if (ev.reason === 'MachineMarkedUnhealthy' && io.kind === 'Machine' && io.name) {
      const m = snapshot.capi.machines.find(
        (x) => x.metadata?.name === io.name && (!io.namespace || x.metadata?.namespace === io.namespace),
      );
      const c = (m && ownerOf(m)) ?? ownerByName(io.namespace, io.name);
      if (!c) continue;
      c.remediated.add(io.name);
      c.events.push(ev);
    }
  }

  const loops: RecreationLoop[] = [];
  for (const c of churn.values()) {
    // Created AND deleted inside the window: a short-lived machine, whatever source told us.
    for (const name of c.deleted) if (c.created.has(name)) c.shortLived.add(name);
    const created = c.created.size + c.unnamedCreates;
    const deleted = c.deleted.size + c.unnamedDeletes;
    if (!created && !deleted && !c.remediated.size) continue;
    const excess = c.desired !== undefined ? Math.max(0, created - Math.max(c.desired, 1)) : 0;
    const replacements = Math.max(new Set([...c.shortLived, ...c.remediated]).size, excess);
    const creationTimes = [...c.created.values()]
      .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)))
      .sort();
    const id = `${c.owner.kind} ${c.owner.namespace ? `${c.owner.namespace}/` : ''}${c.owner.name}`;
    const evidence = [
      `${id}: ${created} machine${created === 1 ? '' : 's'} created and ${deleted} deleted in the last ${formatAge(opts.windowMinutes * 60000)}${c.desired !== undefined ? ` (spec.replicas=${c.desired})` : ''}, ${replacements} replacement${replacements === 1 ? '' : 's'}`,
    ];
    let intervalMinutes: number | undefined;
    if (creationTimes.length >= 2) {
      const first = Date.parse(creationTimes[0] as string);
      const last = Date.parse(creationTimes[creationTimes.length - 1] as string);
      intervalMinutes = (last - first) / 60000 / (creationTimes.length - 1);
      evidence.push(
        `creationTimestamps: ${creationTimes.join(', ')} (about one every ${Math.round(intervalMinutes)}m)`,
      );
    }
    if (c.remediated.size) evidence.push(`MachineHealthCheck remediated: ${[...c.remediated].sort().join(', ')}`);
    evidence.push(...c.evidence.slice(0, 6));
    for (const ev of c.events.slice(0, 4)) evidence.push(quoteEvent(ev, opts.now));
    const since =
      creationTimes[0] ??
      c.events
        .map((e) => e.firstTimestamp)
        .filter((t): t is string => !!t)
        .sort()[0];
    const loop: RecreationLoop = {
      owner: c.owner,
      created,
      deleted,
      replacements,
      creationTimes,
      nodeNames: [...c.nodeNames].sort(),
      evidence,
    };
    if (c.desired !== undefined) loop.desiredReplicas = c.desired;
    if (intervalMinutes !== undefined) loop.intervalMinutes = intervalMinutes;
    if (since) loop.since = since;
    const underway = findUnderway(c.fresh, snapshot, now);
    if (underway) {
      loop.underway = underway;
      evidence.push(
        `next replacement under way: Machine ${c.owner.namespace ? `${c.owner.namespace}/` : ''}${underway.machine} ${underway.why}`,
      );
    }
    loops.push(loop);
  }
  return loops.sort(
    (a, b) =>
      b.replacements - a.replacements ||
      `${a.owner.kind}/${a.owner.namespace}/${a.owner.name}`.localeCompare(
        `${b.owner.kind}/${b.owner.namespace}/${b.owner.name}`,
      ),
  );
}

/** The newest fresh machine that already fails: Node NotReady, or no Node after NO_NODE_MINUTES. */
function findUnderway(fresh: KubeObject[], snapshot: Snapshot, now: number): RecreationLoop['underway'] {
  const newest = [...fresh]
    .sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)))
    .pop();
  if (!newest) return undefined;
  const nodeName = newest.status?.nodeRef?.name;
  if (typeof nodeName === 'string') {
    const node = snapshot.nodes.find((n) => n.metadata.name === nodeName);
    // conditions of a wrong type (a corrupt dump) mean "no Ready condition" (fuzzed input).
    const conditions: unknown = node?.status?.conditions;
    const ready = (Array.isArray(conditions) ? conditions : []).find((c: { type?: string }) => c?.type === 'Ready');
    if (!node || !ready || ready.status === 'True') return undefined;
    const msg = typeof ready.message === 'string' ? `: ${ready.message.slice(0, 160)}` : '';
    return { machine: newest.metadata.name, why: `has Node ${nodeName} Ready=${ready.status}${msg}` };
  }
  const age = now - Date.parse(String(newest.metadata.creationTimestamp));
  if (age >= NO_NODE_MINUTES * 60000)
    return { machine: newest.metadata.name, why: `has no Node ${formatAge(age)} after creation` };
  return undefined;
}

/** How many of an event's occurrences fall in the window (pro rata when it started before it). */
function countInWindow(ev: EventProjection, start: number): number {
  const last = ev.lastTimestamp ? Date.parse(ev.lastTimestamp) : NaN;
  if (Number.isNaN(last) || last < start) return 0;
  const first = ev.firstTimestamp ? Date.parse(ev.firstTimestamp) : NaN;
  if (Number.isNaN(first) || first >= start || last <= first) return ev.count;
  return Math.max(1, Math.round((ev.count * (last - start)) / (last - first)));
}
