import type { ControlPlaneLog, LogSignal, LogSignalKind } from '../snapshot.js';

/** Signals kept per kind: the last ones matter (what the log says at its end), a few give context. */
const KEEP_PER_KIND = 5;
const MAX_LINE = 500;

/**
 * The lines of an etcd or kube-apiserver pod log (`<ns>/<pod>/logs.txt` of `kubectl cluster-info
 * dump`, or a node's /var/log/pods file) that say something about etcd's leader, its alarms or the
 * API server's view of etcd, in log order.
 *
 * Log lines come as kubectl prints them, or wrapped by the container runtime (CRI
 * `<time> stderr F <line>`, docker json-file `{"log":"<line>\n","time":…}`): the wrapper is removed
 * and its time kept. etcd logs zap JSON (3.4+) or capnslog text (3.3, `raft2020/06/21 …`).
 *
 * Patterns come from etcd's raft and server messages ("lost leader", "no leader at term",
 * "serving /health false; no leader", "elected leader", "became leader", "database space exceeded")
 * and kube-apiserver's etcd client errors ("etcdserver: no leader", "[-]etcd failed", dial errors
 * to the etcd client port). An election that keeps restarting ("is starting a new election",
 * "became candidate") without "elected leader" is a member that cannot win a vote: no quorum.
 */
export function scanControlPlaneLog(text: string, component: ControlPlaneLog['component']): LogSignal[] {
  const found: LogSignal[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.startsWith('==== ')) continue;
    const { line, time } = unwrap(raw.trim());
    const kind = component === 'etcd' ? classifyEtcd(line) : classifyApiserver(line);
    if (!kind) continue;
    const signal: LogSignal = { kind, line: line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 3)}...` : line };
    const t = time ?? timeInLine(line);
    if (t) signal.time = t;
    found.push(signal);
  }
  // Keep the last KEEP_PER_KIND of each kind, in log order.
  const left = new Map<LogSignalKind, number>();
  const kept: LogSignal[] = [];
  for (let i = found.length - 1; i >= 0; i--) {
    const s = found[i]!;
    const n = left.get(s.kind) ?? 0;
    if (n >= KEEP_PER_KIND) continue;
    left.set(s.kind, n + 1);
    kept.push(s);
  }
  return kept.reverse();
}

/** Which component a pod's log belongs to, from the pod name kubeadm gives static pods. */
export function controlPlaneComponentOf(podName: string): ControlPlaneLog['component'] | undefined {
  if (/^etcd(-|$)/.test(podName)) return 'etcd';
  if (/^kube-apiserver(-|$)/.test(podName)) return 'kube-apiserver';
  return undefined;
}

function classifyEtcd(line: string): LogSignalKind | undefined {
  if (/database space exceeded|alarm[:"\s]+NOSPACE|"alarm":"NOSPACE"|etcdserver: no space/i.test(line))
    return 'nospace';
  if (/alarm[:"\s]+CORRUPT|"alarm":"CORRUPT"|data inconsistency|corruption detected/i.test(line)) return 'corrupt';
  if (
    /elected leader [0-9a-f]+ at term|became leader at term|changed leader from [0-9a-f]+ to [0-9a-f]+ at term/.test(
      line,
    )
  )
    return 'leader';
  if (
    /serving \/health false; no leader|lost leader|no leader at term|etcdserver: no leader|is starting a new election at term|became (?:pre-)?candidate at term/.test(
      line,
    )
  ) {
    return 'no-leader';
  }
  return undefined;
}

function classifyApiserver(line: string): LogSignalKind | undefined {
  if (/\[-\]etcd(?:-readiness)? failed/.test(line)) return 'readyz-etcd-failed';
  if (/database space exceeded/.test(line)) return 'nospace';
  if (
    /etcdserver: (?:no leader|request timed out|leader changed)/.test(line) ||
    /panic: context deadline exceeded/.test(line) ||
    (/:2379\b/.test(line) &&
      /connection refused|connection timed out|i\/o timeout|deadline exceeded|no route to host/.test(line))
  ) {
    return 'etcd-unavailable';
  }
  return undefined;
}

/** Strip a CRI or docker json-file wrapper; keep the runtime's time. */
function unwrap(line: string): { line: string; time?: string } {
  const cri = /^(\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)) (?:stdout|stderr) [FP] (.*)$/.exec(line);
  if (cri) return { line: cri[2]!.trim(), time: cri[1]! };
  if (line.startsWith('{"log":')) {
    try {
      const doc = JSON.parse(line) as { log?: unknown; time?: unknown };
      if (typeof doc.log === 'string') {
        const out: { line: string; time?: string } = { line: doc.log.trim() };
        if (typeof doc.time === 'string') out.time = doc.time;
        return out;
      }
    } catch {
      // not a docker json-file line after all: classify it as it is
    }
  }
  return { line };
}

/**
 * The time a line states itself: zap `"ts":"…"`, capnslog `2018-04-29 15:54:55.424209`, raft `raft2020/06/21 05:43:24`.
 */
function timeInLine(line: string): string | undefined {
  const zap = /"ts":"(\d{4}-\d\d-\d\dT[^"]+)"/.exec(line);
  if (zap) return zap[1];
  const capns = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?) /.exec(line);
  if (capns) return `${capns[1]}T${capns[2]}Z`;
  const raft = /^raft(\d{4})\/(\d\d)\/(\d\d) (\d\d:\d\d:\d\d) /.exec(line);
  if (raft) return `${raft[1]}-${raft[2]}-${raft[3]}T${raft[4]}Z`;
  return undefined;
}
