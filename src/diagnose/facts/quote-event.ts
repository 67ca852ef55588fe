import type { EventProjection } from '../../cluster/snapshot.js';
import { formatAge } from './age.js';

/**
 * One evidence line for an event, quoting its message:
 * `Event FailedCreate x14 over 1h5m (last 2m ago) on DaemonSet kube-system/antrea-agent from daemonset-controller:
 * "…"`.
 */
export function quoteEvent(ev: EventProjection, now: Date): string {
  const first = ev.firstTimestamp ? Date.parse(ev.firstTimestamp) : NaN;
  const last = ev.lastTimestamp ? Date.parse(ev.lastTimestamp) : NaN;
  const parts = [`Event ${ev.reason ?? '<no reason>'}`];
  if (ev.count > 1) parts.push(`x${ev.count}`);
  if (!Number.isNaN(first) && !Number.isNaN(last) && last > first) parts.push(`over ${formatAge(last - first)}`);
  if (!Number.isNaN(last)) parts.push(`(last ${formatAge(now.getTime() - last)} ago)`);
  const io = ev.involvedObject;
  if (io.kind || io.name)
    parts.push(`on ${io.kind ?? 'object'} ${io.namespace ? `${io.namespace}/` : ''}${io.name ?? ''}`);
  if (ev.source) parts.push(`from ${ev.source}`);
  const msg = (ev.message ?? '').replace(/\s+/g, ' ').trim();
  const clipped = msg.length > 400 ? `${msg.slice(0, 400)}…` : msg;
  return `${parts.join(' ')}: "${clipped}"`;
}
