import { createEmptySnapshot, type EtcdState, type PartialEntry } from '../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { analyzeSnapshot } from '../../src/diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../../src/diagnose/analyzers/index.js';
import { EMPTY_HISTORY } from '../../src/diagnose/history.js';

/** Run the real analyzer registry over a snapshot holding only what collectEtcd read from a live etcd. */
export function diagnoseEtcdState(result: { etcd?: EtcdState; partial: PartialEntry[] }) {
  const snapshot = createEmptySnapshot('live-etcd', new Date().toISOString(), 'live');
  if (result.etcd) snapshot.etcd = result.etcd;
  snapshot.partial = result.partial;
  return analyzeSnapshot(snapshot, ANALYZERS, {
    history: EMPTY_HISTORY,
    thresholds: DEFAULT_THRESHOLDS,
    now: new Date(),
  });
}
