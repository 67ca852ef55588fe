import type { ReadyzCheck } from '../../cluster/snapshot.js';

/** How the fake answers `/readyz`: healthy, etcd check failing (seed S1: no leader), custom checks, or down. */
export type ReadyzMode = 'healthy' | 'etcd-failing' | 'down' | ReadyzCheck[];

const CHECKS = [
  'ping',
  'log',
  'etcd',
  'etcd-readiness',
  'informer-sync',
  'poststarthook/start-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/crd-informer-synced',
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'shutdown',
];

/**
 * The body and status of `/readyz` (or `/livez`) as kube-apiserver writes them: `[+]name ok` /
 * `[-]name failed: reason withheld` lines, then `readyz check passed|failed`; 200 or 500. Without
 * `?verbose` a passing check answers just `ok` (a failing one always lists the checks).
 */
export function renderReadyz(
  mode: Exclude<ReadyzMode, 'down'>,
  verbose: boolean,
  endpoint = 'readyz',
): { status: number; body: string } {
  const checks: ReadyzCheck[] =
    mode === 'healthy'
      ? CHECKS.map((name) => ({ name, ok: true }))
      : mode === 'etcd-failing'
        ? CHECKS.map((name) => ({ name, ok: !name.startsWith('etcd') }))
        : mode;
  const ok = checks.every((c) => c.ok);
  if (ok && !verbose) return { status: 200, body: 'ok' };
  const lines = checks.map((c) =>
    c.ok ? `[+]${c.name} ok` : `[-]${c.name} failed: ${c.message ?? 'reason withheld'}`,
  );
  lines.push(`${endpoint} check ${ok ? 'passed' : 'failed'}`);
  return { status: ok ? 200 : 500, body: lines.join('\n') + '\n' };
}
