import type { EventProjection, KubeObject } from './snapshot.js';

/**
 * Reduce a core/v1 Event (or events.k8s.io/v1 Event) to the compact projection.
 * events.k8s.io/v1 uses `regarding`, `note`, `series.count`, `deprecated*` fields: both shapes are read.
 */
export function projectEvent(ev: KubeObject, origin: EventProjection['origin']): EventProjection {
  const involved = (ev.involvedObject ?? ev.regarding ?? {}) as Record<string, unknown>;
  const count = firstNumber(ev.count, ev.series?.count, ev.deprecatedCount) ?? 1;
  const out: EventProjection = {
    origin,
    count,
    involvedObject: {},
  };
  for (const k of ['kind', 'namespace', 'name', 'uid'] as const) {
    if (typeof involved[k] === 'string' && involved[k]) out.involvedObject[k] = involved[k] as string;
  }
  set(out, 'namespace', ev.metadata?.namespace);
  set(out, 'name', ev.metadata?.name);
  set(out, 'type', ev.type);
  set(out, 'reason', ev.reason);
  set(out, 'message', ev.message ?? ev.note);
  set(
    out,
    'firstTimestamp',
    ev.firstTimestamp ?? ev.deprecatedFirstTimestamp ?? ev.eventTime ?? ev.metadata?.creationTimestamp,
  );
  set(
    out,
    'lastTimestamp',
    ev.lastTimestamp ?? ev.series?.lastObservedTime ?? ev.deprecatedLastTimestamp ?? ev.eventTime ?? ev.firstTimestamp,
  );
  const src = ev.source?.component ?? ev.reportingController ?? ev.reportingComponent;
  set(out, 'source', src);
  return out;
}

function firstNumber(...vals: unknown[]): number | undefined {
  for (const v of vals) if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  return undefined;
}
function set(
  target: EventProjection,
  key: 'namespace' | 'name' | 'type' | 'reason' | 'message' | 'firstTimestamp' | 'lastTimestamp' | 'source',
  v: unknown,
) {
  if (typeof v === 'string' && v) target[key] = v;
}
