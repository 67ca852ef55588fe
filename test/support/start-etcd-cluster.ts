import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';
import { signalPid } from './signal-pid.js';

const ETCD_BIN = '/usr/bin/etcd';

/** The etcd binary is missing: a loud failure with the install hint, never a skip. */
export class EtcdNotInstalledError extends Error {
  readonly code = 'ETCD_NOT_INSTALLED';
  constructor() {
    super('etcd is not installed: apt-get install -y etcd-server etcd-client');
    this.name = 'EtcdNotInstalledError';
  }
}

/** One member of a test cluster. `pid` follows restarts. */
export interface EtcdTestMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  pid: number;
}

export interface EtcdTestCluster {
  members: EtcdTestMember[];
  /** Client URLs of every member, in member order. */
  endpoints: string[];
  /** Send `signal` to member i (default SIGKILL) and wait until it has exited. */
  kill(i: number, signal?: NodeJS.Signals): Promise<void>;
  /** Graceful stop (SIGTERM) of member i; its data dir is kept for restart(i). */
  stop(i: number): Promise<void>;
  /** SIGSTOP: the process keeps its sockets but answers nothing (a hung member / unreachable leader). */
  pause(i: number): void;
  /** SIGCONT after pause(i). */
  resume(i: number): void;
  /** Start member i again on the same ports and data dir. */
  restart(i: number): Promise<void>;
  /** Stop every member and remove all data dirs. */
  stopAll(): Promise<void>;
}

export interface StartEtcdClusterOptions {
  size?: number;
  /** etcd --election-timeout (ms); long values keep a paused leader "leader" for a while (seed S0). */
  electionTimeoutMs?: number;
  /** etcd --heartbeat-interval (ms). */
  heartbeatMs?: number;
  /** etcd --quota-backend-bytes: a small quota lets a test raise a real NOSPACE alarm with a few writes. */
  quotaBackendBytes?: number;
  /** How long to wait for a leader after start; default 30 s (the machine is shared and slow). */
  leaderTimeoutMs?: number;
}

/**
 * Start a real etcd cluster (Debian's etcd-server 3.4) on free loopback ports, members e1..eN,
 * and resolve once every member reports the same leader. Stop it with `stopAll()` in afterAll.
 */
export async function startEtcdCluster(opts: StartEtcdClusterOptions = {}): Promise<EtcdTestCluster> {
  const probe = spawnSync(ETCD_BIN, ['--version']);
  if (probe.error || probe.status !== 0) throw new EtcdNotInstalledError();

  const size = opts.size ?? 3;
  const root = mkdtempSync(path.join(tmpdir(), 'k8s-health-etcd-'));
  const specs: { name: string; clientPort: number; peerPort: number }[] = [];
  for (let i = 1; i <= size; i++)
    specs.push({ name: `e${i}`, clientPort: await freePort(), peerPort: await freePort() });
  const initialCluster = specs.map((s) => `${s.name}=http://127.0.0.1:${s.peerPort}`).join(',');
  const token = path.basename(root);

  const children: (ChildProcess | undefined)[] = [];
  const members: EtcdTestMember[] = specs.map((s) => ({
    name: s.name,
    clientUrl: `http://127.0.0.1:${s.clientPort}`,
    peerUrl: `http://127.0.0.1:${s.peerPort}`,
    pid: 0,
  }));

  const launch = (i: number) => {
    const s = specs[i]!;
    const m = members[i]!;
    const args = [
      '--name',
      s.name,
      '--data-dir',
      path.join(root, s.name),
      '--listen-client-urls',
      m.clientUrl,
      '--advertise-client-urls',
      m.clientUrl,
      '--listen-peer-urls',
      m.peerUrl,
      '--initial-advertise-peer-urls',
      m.peerUrl,
      '--initial-cluster',
      initialCluster,
      '--initial-cluster-state',
      'new',
      '--initial-cluster-token',
      token,
      '--logger',
      'zap',
    ];
    if (opts.electionTimeoutMs) args.push('--election-timeout', String(opts.electionTimeoutMs));
    if (opts.heartbeatMs) args.push('--heartbeat-interval', String(opts.heartbeatMs));
    if (opts.quotaBackendBytes) args.push('--quota-backend-bytes', String(opts.quotaBackendBytes));
    const log = openSync(path.join(root, `${s.name}.log`), 'a');
    const child = spawn(ETCD_BIN, args, { stdio: ['ignore', log, log] });
    closeSync(log);
    // Do not keep jest alive because of a member; stopAll() still stops it by pid.
    child.unref();
    children[i] = child;
    m.pid = child.pid ?? 0;
  };

  const waitExit = async (i: number, signal: NodeJS.Signals) => {
    const child = children[i];
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      signalPid(child.pid ?? 0, signal);
    } catch {
      return;
    }
    // A stopped process only acts on SIGKILL; wake it so SIGTERM is handled too.
    if (signal !== 'SIGKILL') {
      try {
        signalPid(child.pid ?? 0, 'SIGCONT');
      } catch {
        /* already gone */
      }
    }
    await exited;
  };

  for (let i = 0; i < size; i++) launch(i);
  const cluster: EtcdTestCluster = {
    members,
    endpoints: members.map((m) => m.clientUrl),
    kill: (i, signal = 'SIGKILL') => waitExit(i, signal),
    stop: (i) => waitExit(i, 'SIGTERM'),
    pause: (i) => signalPid(members[i]!.pid, 'SIGSTOP'),
    resume: (i) => signalPid(members[i]!.pid, 'SIGCONT'),
    restart: async (i) => {
      await waitExit(i, 'SIGKILL');
      launch(i);
      await waitForPort(specs[i]!.clientPort, 30000);
    },
    stopAll: async () => {
      await Promise.all(members.map((_, i) => waitExit(i, 'SIGKILL')));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await waitForLeader(
      members.map((m) => m.clientUrl),
      opts.leaderTimeoutMs ?? 30000,
    );
  } catch (err) {
    await cluster.stopAll();
    throw err;
  }
  return cluster;
}

/** Every member answers status (HTTP gateway) and all name the same non-zero leader. */
async function waitForLeader(endpoints: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const leaders = await Promise.all(endpoints.map((e) => readLeader(e)));
    last = leaders.join(',');
    if (leaders.every((l) => l && l !== '0' && l === leaders[0])) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd test cluster has no common leader after ${timeoutMs} ms (leaders seen: ${last})`);
}

async function readLeader(endpoint: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${endpoint}/v3/maintenance/status`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(2000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { leader?: string };
    return body.leader;
  } catch {
    return undefined;
  }
}
