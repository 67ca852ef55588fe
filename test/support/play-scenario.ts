import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeAlertChanges } from '../../src/alerts/analyze-alert-changes.js';
import { EMPTY_ALERT_STATE, type ClusterAlertState, type Incident } from '../../src/alerts/incident.js';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import type { Report } from '../../src/report/report.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';

/** When a dump was captured (its meta.json): the sandbox scans it at that moment. */
function capturedAt(dir: string): Date {
  return new Date(String(JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')).collectedAt));
}

/**
 * Every scan of a scenario (as cluster prod-east), with the alert threads it opened or changed, as the bot would post
 * them: each scanned when captured (a live cluster, and the sandbox), or all at `at`.
 */
export async function playScenario(scans: string[], at?: Date): Promise<{ report: Report; incidents: Incident[] }> {
  const history = new InMemoryHistory();
  let state: ClusterAlertState = EMPTY_ALERT_STATE;
  let report: Report | undefined;
  const incidents = new Map<string, Incident>();
  for (const dir of scans) {
    report = await scanSnapshot(await loadDump(dir, { cluster: 'prod-east' }), {
      history,
      thresholds: DEFAULT_THRESHOLDS,
      generatedAt: at ?? capturedAt(dir),
    });
    const next = analyzeAlertChanges(state, report, {
      channel: 'C0ALERTS',
      resolveAfterScans: 2,
      flapWindowMinutes: 30,
    });
    state = next.state;
    for (const inc of next.changed) incidents.set(inc.fingerprint, inc);
  }
  return { report: report!, incidents: [...incidents.values()] };
}
