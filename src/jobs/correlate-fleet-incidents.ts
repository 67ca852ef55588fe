import { fleetIncidentKey, joinFleetIncident, type FleetIncident } from '../alerts/fleet-incident.js';
import type { Incident } from '../alerts/incident.js';
import type { FleetIncidentStore } from '../alerts/fleet-incident-store.js';

/**
 * After a scan's alert transition: every incident of this scan that opened (or reopened) with a
 * `correlationKey` joins the fleet incident of its channel, finding id and key — or starts one as its
 * anchor — before its notify job is queued, so the poster already knows where it belongs. The window
 * is `scan.correlateSeconds` (0: nothing is correlated).
 */
export async function correlateFleetIncidents(
  store: FleetIncidentStore<FleetIncident>,
  changed: readonly Incident[],
  opts: { windowSeconds: number },
): Promise<FleetIncident[]> {
  if (opts.windowSeconds <= 0) return [];
  const out: FleetIncident[] = [];
  for (const inc of changed) {
    const last = inc.changes.at(-1);
    const key = inc.finding.correlationKey;
    if (!key || inc.status !== 'open' || !last || !(last.kinds.includes('opened') || last.kinds.includes('reopened')))
      continue;
    const fleetKey = fleetIncidentKey(inc.channel, inc.finding.id, key);
    const req = {
      channel: inc.channel,
      cluster: inc.cluster,
      finding: inc.finding,
      fingerprint: inc.fingerprint,
      incidentKey: inc.key,
      at: last.at,
    };
    const next = await store.update(fleetKey, (prev) => joinFleetIncident(prev, req, opts.windowSeconds * 1000));
    await store.setMember(inc.cluster, inc.fingerprint, fleetKey);
    if (next) out.push(next);
  }
  return out;
}
