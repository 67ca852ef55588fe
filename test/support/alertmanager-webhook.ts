/** One firing alert as Alertmanager's webhook carries it (payload version 4), started at 01:00 UTC. */
export function firingAlert(
  fingerprint: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
  startsAt = '2026-11-28T01:00:00Z',
): Record<string, unknown> {
  return {
    status: 'firing',
    labels,
    annotations,
    startsAt,
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: '',
    fingerprint,
  };
}

/** The body of one Alertmanager webhook (payload version 4) of group `groupKey`; `extra` adds or overrides fields. */
export function webhookBody(groupKey: string, alerts: readonly unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: '4',
    groupKey,
    status: 'firing',
    receiver: 'k8s-health',
    groupLabels: {},
    commonLabels: {},
    externalURL: '',
    alerts,
    ...extra,
  });
}
