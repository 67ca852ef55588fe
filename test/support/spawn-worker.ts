import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForPort } from './free-port.js';
import { TEST_PLAN_SECRET } from './plan-secret.js';

export interface SpawnedWorker {
  port: number;
  child: ChildProcess;
  /** What the process printed so far. */
  readonly output: string;
  /** SIGKILL if still running, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawn the built `k8s-health worker --config FILE [args]` (dist/) on a free PORT with only the given
 * environment, and wait until its probes listen and its workers run (it printed "workers running").
 * K8S_HEALTH_PLAN_SECRET is TEST_PLAN_SECRET unless the env names it.
 */
export async function spawnWorker(opts: {
  config: string;
  env: Record<string, string>;
  args?: string[];
}): Promise<SpawnedWorker> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['bin/k8s-health.js', 'worker', '--config', opts.config, ...(opts.args ?? [])],
    {
      env: { PATH: process.env.PATH ?? '', K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET, ...opts.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const fail = (why: string) => new Error(`worker ${why}\noutput: ${output}`);
  await waitForPort(port, 30000).catch((err: Error) => {
    throw fail(err.message);
  });
  const deadline = Date.now() + 30000;
  while (!/workers running/.test(output)) {
    if (child.exitCode !== null) throw fail(`exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw fail('never said its workers run');
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    child,
    get output() {
      return output;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}
