import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Outcome label of `k8s_health_commands_total`. */
export type CommandOutcome = 'answered' | 'scanning' | 'stale' | 'help' | 'rejected' | 'error';

/** The `/metrics` registry of one `serve` process. */
export interface ServeMetrics {
  registry: Registry;
  commands: Counter<'outcome'>;
  commandSeconds: Histogram;
  scans: Counter;
  scanErrors: Counter;
  errors: Counter<'where'>;
}

/**
 * A private registry per process (not prom-client's global one) so several apps in one test
 * process do not collide on metric names.
 */
export function createMetrics(opts: { defaultMetrics?: boolean } = {}): ServeMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'k8s_health_' });
  return {
    registry,
    commands: new Counter({
      name: 'k8s_health_commands_total',
      help: '/k8s-health commands by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    commandSeconds: new Histogram({
      name: 'k8s_health_command_duration_seconds',
      help: 'Time from a /k8s-health command to its first answer posted',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10],
      registers: [registry],
    }),
    scans: new Counter({
      name: 'k8s_health_scans_total',
      help: 'Scans run on request of a command',
      registers: [registry],
    }),
    scanErrors: new Counter({ name: 'k8s_health_scan_errors_total', help: 'Scans that failed', registers: [registry] }),
    errors: new Counter({
      name: 'k8s_health_errors_total',
      help: 'Errors by where they happened',
      labelNames: ['where'],
      registers: [registry],
    }),
  };
}
