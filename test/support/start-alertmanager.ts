import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { pidAlive, signalPid } from './signal-pid.js';

/** Debian's `prometheus-alertmanager` (scripts/preflight.js installs it). */
export const ALERTMANAGER_BIN = 'prometheus-alertmanager';

/** A real Alertmanager on loopback, its webhook receiver pointing at the bot. */
export interface AlertmanagerServer {
  port: number;
  /** http://127.0.0.1:PORT (its API v2 is under /api/v2). */
  url: string;
  pid: number;
  dir: string;
  /** What it printed (its own log), for failure messages. */
  readonly output: string;
  /** Push alerts as Prometheus does (POST /api/v2/alerts). */
  pushAlerts(alerts: PushedAlert[]): Promise<void>;
  /** GET /api/v2/silences. */
  silences(): Promise<
    {
      id: string;
      status: { state: string };
      matchers: { name: string; value: string; isRegex: boolean; isEqual?: boolean }[];
      createdBy: string;
      comment: string;
      endsAt: string;
    }[]
  >;
  /** Stop by pid and remove its storage dir. */
  stop(): Promise<void>;
}

/** An alert as Prometheus posts it: labels (alertname included), annotations, times. */
export interface PushedAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

/**
 * Start `prometheus-alertmanager` on a free loopback port with its own storage dir, no gossip
 * (`--cluster.listen-address=` empty) and a config whose one route sends every alert to `webhookUrl`
 * with `Authorization: Bearer <token>` (group_wait 1s, group_interval 2s: tests wait seconds, not
 * minutes). Grouped by alertname and cluster like kube-prometheus-stack's default. A missing binary is
 * one loud failure with the install hint, never a skip.
 */
export async function startAlertmanager(opts: {
  webhookUrl: string;
  token: string;
  groupBy?: string[];
  repeatInterval?: string;
  maxAlerts?: number;
}): Promise<AlertmanagerServer> {
  const probe = spawnSync(ALERTMANAGER_BIN, ['--version']);
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `${ALERTMANAGER_BIN} is not installed: run \`apt-get install -y prometheus-alertmanager\` (scripts/preflight.js does this)`,
    );
  }
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-alertmanager-'));
  const config = [
    'route:',
    '  receiver: k8s-health',
    `  group_by: [${(opts.groupBy ?? ['alertname', 'cluster']).map((g) => JSON.stringify(g)).join(', ')}]`,
    '  group_wait: 1s',
    '  group_interval: 2s',
    `  repeat_interval: ${opts.repeatInterval ?? '1h'}`,
    'receivers:',
    '  - name: k8s-health',
    '    webhook_configs:',
    `      - url: ${JSON.stringify(opts.webhookUrl)}`,
    '        send_resolved: true',
    ...(opts.maxAlerts ? [`        max_alerts: ${opts.maxAlerts}`] : []),
    '        http_config:',
    '          authorization:',
    '            type: Bearer',
    `            credentials: ${JSON.stringify(opts.token)}`,
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'alertmanager.yml'), config);
  const child: ChildProcess = spawn(
    ALERTMANAGER_BIN,
    [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const pid = child.pid!;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (pidAlive(pid) && child.exitCode === null) {
      try {
        signalPid(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      for (let i = 0; i < 200 && child.exitCode === null && pidAlive(pid); i++)
        await new Promise((r) => setTimeout(r, 25));
      if (child.exitCode === null && pidAlive(pid)) signalPid(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready when its API answers (it listens before it has read its config).
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`${ALERTMANAGER_BIN} exited with ${child.exitCode}: ${output.slice(-2000)}`);
    }
    const ok = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${ALERTMANAGER_BIN} on port ${port} was not ready within 15 s: ${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url,
    pid,
    dir,
    get output() {
      return output;
    },
    async pushAlerts(alerts) {
      const res = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!res.ok) throw new Error(`POST /api/v2/alerts: ${res.status} ${await res.text()}`);
    },
    async silences() {
      const res = await fetch(`${url}/api/v2/silences`);
      if (!res.ok) throw new Error(`GET /api/v2/silences: ${res.status}`);
      return (await res.json()) as Awaited<ReturnType<AlertmanagerServer['silences']>>;
    },
    stop,
  };
}
