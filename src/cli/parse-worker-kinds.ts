import { WORKER_KINDS, type WorkerKind } from '../jobs/worker-kinds.js';
import { UsageError } from './usage-error.js';

/**
 * The value of `worker --only`: a comma-separated subset of WORKER_KINDS, e.g. `scan,notify,expiry`
 * or `remediate`. Order and repeats do not matter; an unknown or empty name is a usage error that
 * lists the valid ones (a typo must not start a worker that silently runs nothing).
 */
export function parseWorkerKinds(value: string): WorkerKind[] {
  const names = value.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !(WORKER_KINDS as readonly string[]).includes(n));
  if (unknown.length) {
    const shown = unknown.map((n) => (n ? `"${n}"` : 'an empty name')).join(', ');
    throw new UsageError(`--only: unknown worker ${shown} (choose from ${WORKER_KINDS.join(', ')}, comma-separated)`);
  }
  return WORKER_KINDS.filter((k) => names.includes(k));
}
