import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { askRedis, redisProcesses, requireCommands, type RedisProcess } from './redis-processes.js';

export interface RedisSentinelTopology {
  master: string;
  password: string;
  /** `host:port,…` of the three sentinels (REDIS_SENTINELS). */
  sentinels: string;
  /** The environment a bot process needs to reach it. */
  env: Record<string, string>;
  /** A client of the current master (through the sentinels). */
  client(): Redis;
  /** Port of the current master, as the sentinels say. */
  masterPort(): Promise<number>;
  /** Resolves once the connected replicas have everything the master had when asked (asynchronous replication). */
  replicated(): Promise<void>;
  /** kill -9 the current master; resolves once a sentinel names another one (the failover). */
  killMaster(): Promise<{ oldPort: number; newPort: number; failoverMs: number }>;
  /** Stop every daemon by pid and remove the directory. */
  stop(): Promise<void>;
}

const MASTER = 'k8shealth';

/**
 * A real Sentinel topology on free loopback ports from Debian's packages: a master, two replicas
 * (requirepass + masterauth, AOF appendfsync always) and three sentinels (quorum 2, down-after 1 s),
 * stopped by pid (test/support/redis-processes.ts). A missing redis-sentinel is a loud failure with the
 * install hint, never a skip.
 */
export async function startRedisSentinel(): Promise<RedisSentinelTopology> {
  requireCommands(
    ['redis-server', 'redis-sentinel'],
    'run `apt-get install -y redis-server redis-sentinel` (scripts/preflight.js lists them)',
  );
  const procs = redisProcesses('sentinel');
  const password = 'sentinel-topology-pw';
  const servers: RedisProcess[] = [];
  const sentinels: RedisProcess[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const master = servers[0];
      servers.push(
        await procs.start({
          command: 'redis-server',
          name: 'redis',
          password,
          args: (port, logfile) => [
            '--port',
            String(port),
            '--bind',
            '127.0.0.1',
            '--save',
            '',
            '--appendonly',
            'yes',
            '--appendfsync',
            'always',
            '--dir',
            procs.dir,
            '--appendfilename',
            `aof-${port}.aof`,
            '--appenddirname',
            `aof-${port}`,
            '--requirepass',
            password,
            '--masterauth',
            password,
            ...(master ? ['--replicaof', '127.0.0.1', String(master.port)] : []),
            '--logfile',
            logfile,
          ],
        }),
      );
    }
    for (let i = 0; i < 3; i++) {
      sentinels.push(
        await procs.start({
          command: 'redis-sentinel',
          name: 'sentinel',
          args: (port, logfile) => {
            const conf = path.join(procs.dir, `sentinel-${port}.conf`);
            writeFileSync(
              conf,
              [
                `port ${port}`,
                'bind 127.0.0.1',
                `logfile ${logfile}`,
                `dir ${procs.dir}`,
                `sentinel monitor ${MASTER} 127.0.0.1 ${servers[0]!.port} 2`,
                `sentinel auth-pass ${MASTER} ${password}`,
                `sentinel down-after-milliseconds ${MASTER} 1000`,
                `sentinel failover-timeout ${MASTER} 5000`,
                `sentinel parallel-syncs ${MASTER} 1`,
                '',
              ].join('\n'),
            );
            return [conf];
          },
        }),
      );
    }
    // Replicas in sync before any test relies on a failover.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const info = await askRedis(servers[0]!.port, password, (c) => c.info('replication')).catch(() => '');
      if ((info.match(/state=online/g) ?? []).length === 2) break;
      if (Date.now() > deadline)
        throw new Error(`sentinel topology: replicas not in sync within 20 s (see ${procs.dir})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await procs.stop();
    throw err;
  }
  const list = sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
  const masterPort = async (): Promise<number> => {
    for (const s of sentinels.filter((x) => procs.live().includes(x))) {
      const answer = await askRedis(
        s.port,
        undefined,
        (c) => c.call('SENTINEL', 'get-master-addr-by-name', MASTER) as Promise<[string, string]>,
      ).catch(() => undefined);
      if (answer) return Number(answer[1]);
    }
    throw new Error('no sentinel answered');
  };
  return {
    master: MASTER,
    password,
    sentinels: list,
    env: { REDIS_SENTINELS: list, REDIS_SENTINEL_MASTER: MASTER, REDIS_PASSWORD: password },
    client() {
      const c = new Redis({
        sentinels: sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })),
        name: MASTER,
        password,
      });
      c.on('error', () => undefined);
      return c;
    },
    masterPort,
    async replicated() {
      // Up to the master's offset when asked: sentinels and workers keep writing, so "all of it" moves on.
      const port = await masterPort();
      const offsetOf = (info: string) => Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? -1);
      const target = offsetOf(await askRedis(port, password, (c) => c.info('replication')));
      for (let i = 0; ; i++) {
        const info = await askRedis(port, password, (c) => c.info('replication'));
        const replicas = [...info.matchAll(/slave\d+:.*?offset=(\d+)/g)].map((m) => Number(m[1]));
        if (replicas.length >= 1 && replicas.every((o) => o >= target)) return;
        if (i > 200) throw new Error('sentinel topology: replicas did not catch up within 10 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async killMaster() {
      const oldPort = await masterPort();
      const started = Date.now();
      await procs.kill(servers.find((n) => n.port === oldPort)!);
      for (;;) {
        const now = await masterPort().catch(() => oldPort);
        if (now !== oldPort) return { oldPort, newPort: now, failoverMs: Date.now() - started };
        if (Date.now() - started > 30_000) throw new Error('sentinel topology: no failover within 30 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () => procs.stop(),
  };
}
