import { Counter, type Registry } from 'prom-client';

/** Outcome of one webhook request (`k8s_health_alertmanager_requests_total{outcome}`). */
export type WebhookOutcome = 'accepted' | 'malformed' | 'version' | 'too-large' | 'unauthorized' | 'unavailable';

/** What the webhook endpoint counts (serve's `/metrics`). */
export interface AlertmanagerMetrics {
  requests: Counter<'outcome'>;
}

/** The webhook endpoint's counters, in the process's registry. */
export function createAlertmanagerMetrics(registry: Registry): AlertmanagerMetrics {
  return {
    requests: new Counter({
      name: 'k8s_health_alertmanager_requests_total',
      help: 'Alertmanager webhook requests by outcome (accepted, or why refused)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
