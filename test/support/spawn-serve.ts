import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForPort } from './free-port.js';
import { TEST_PLAN_SECRET } from './plan-secret.js';

export interface SpawnedServe {
  port: number;
  child: ChildProcess;
  /** What the process printed so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
  /** SIGKILL if still running, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawn the built `k8s-health serve --config FILE` (dist/, built by `npm test` before jest) on a free
 * PORT (or the given one, for a restart on the same address) with only the given environment, and wait until it
 * listens: the port accepts connections AND it printed its "listening" line (so tests never read its log before it is
 * written). K8S_HEALTH_PLAN_SECRET is TEST_PLAN_SECRET unless the env names it (an empty value unsets it).
 */
export async function spawnServe(opts: {
  config: string;
  env: Record<string, string>;
  args?: string[];
  port?: number;
}): Promise<SpawnedServe> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, ['bin/k8s-health.js', 'serve', '--config', opts.config, ...(opts.args ?? [])], {
    env: { PATH: process.env.PATH ?? '', K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET, ...opts.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const fail = (why: string) => new Error(`serve ${why}\nstdout: ${stdout}\nstderr: ${stderr}`);
  await waitForPort(port, 30000).catch((err: Error) => {
    throw fail(err.message);
  });
  const deadline = Date.now() + 10000;
  while (!/k8s-health serve listening on/.test(stdout)) {
    if (child.exitCode !== null) throw fail(`exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw fail('never printed its listening line');
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exit,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}
