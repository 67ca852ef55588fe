import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { writeTestKubeConfig } from '../test/support/fake-kube-api/create-test-kube-config.js';
import { startRedis } from '../test/support/start-redis.js';

/**
 * Bench child (target 6): CLUSTERS clusters scanned by WORKERS real `k8s-health worker` processes
 * sharing one Redis (BullMQ scan queue, one scheduler per cluster). Throughput = reports stored per
 * second between the first and the last report (process start-up excluded).
 * argv: KUBE_URL WORKERS CLUSTERS.
 */
const [kubeUrl, workersArg, clustersArg] = process.argv.slice(2);
const workers = Number(workersArg ?? 1);
const clusters = Number(clustersArg ?? 200);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const redisServer = await startRedis();
const redis = new Redis(redisServer.url);
const dir = await mkdtemp(path.join(tmpdir(), 'bench-fleet-'));
const kubeconfig = await writeTestKubeConfig(kubeUrl!, 'fleet');
const names = Array.from({ length: clusters }, (_, i) => `fleet-${String(i).padStart(3, '0')}`);
// One scan per cluster: the schedulers fire at once, the next tick is an hour away.
const yaml = `clusters:\n${names.map((n) => `  - name: ${n}\n    workload: { kubeconfig: ${kubeconfig} }\n`).join('')}scan: { intervalSeconds: 3600 }\n`;
const configFile = path.join(dir, 'config.yaml');
await writeFile(configFile, yaml);

const procs: ChildProcess[] = [];
for (let i = 0; i < workers; i++) {
  procs.push(
    spawn(process.execPath, [path.join(root, 'bin/k8s-health.js'), 'worker', '--config', configFile], {
      env: { ...process.env, REDIS_URL: redisServer.url, PORT: '0' },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}
let first = 0;
let last = 0;
const deadline = Date.now() + 300_000;
for (;;) {
  const stored = (await redis.keys('k8s-health:report:*')).length;
  if (stored >= 1 && !first) first = performance.now();
  if (stored >= clusters) {
    last = performance.now();
    break;
  }
  if (Date.now() > deadline) throw new Error(`only ${stored} of ${clusters} clusters scanned in 300 s`);
  await new Promise((r) => setTimeout(r, 25));
}
for (const p of procs) p.kill('SIGTERM');
await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
redis.disconnect();
await redisServer.stop();
const seconds = (last - first) / 1000;
process.send!({ workers, clusters, seconds, perSecond: (clusters - 1) / seconds }, () => process.exit(0));
