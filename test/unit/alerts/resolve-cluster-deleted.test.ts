import { describe, expect, it } from '@jest/globals';
import { analyzeAlertChanges } from '../../../src/alerts/analyze-alert-changes.js';
import type { AlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { EMPTY_ALERT_STATE, type ClusterAlertState } from '../../../src/alerts/incident.js';
import { resolveClusterDeleted } from '../../../src/alerts/resolve-cluster-deleted.js';
import type { Finding } from '../../../src/diagnose/finding.js';
import { renderAlertReply } from '../../../src/slack/render/render-alert.js';

const finding = (fingerprint: string): Finding => ({
  id: 'controlplane.etcd-unhealthy',
  severity: 'warning',
  section: 'etcd',
  title: `KCP ${fingerprint} reports etcd unhealthy`,
  subject: { kind: 'KubeadmControlPlane', name: fingerprint },
  evidence: ['EtcdClusterHealthy=False'],
  remediations: [],
  confidence: 'high',
  fingerprint,
});

/** An AlertStateStore kept in memory with the same compare-and-set contract (the Redis one: test/integration). */
function memoryStore(initial: ClusterAlertState, conflicts = 0): AlertStateStore & { state: ClusterAlertState } {
  let version = 1;
  let left = conflicts;
  return {
    state: initial,
    async load() {
      return { state: this.state, version };
    },
    async save(_cluster, state, expected) {
      if (left-- > 0) version += 1; // another writer saved first
      if (expected !== version) return false;
      this.state = state;
      version += 1;
      return true;
    },
  };
}

describe('resolveClusterDeleted (fleet mode: a Cluster object left its fleet)', () => {
  const opened = analyzeAlertChanges(
    EMPTY_ALERT_STATE,
    {
      cluster: 'web',
      generatedAt: '2026-01-01T10:00:00Z',
      collectedAt: '2026-01-01T10:00:00Z',
      status: 'degraded',
      sections: [],
      findings: [finding('a'), finding('b')],
      partial: [],
    },
    { channel: 'C0FLEET', resolveAfterScans: 3, flapWindowMinutes: 30 },
  ).state;

  it('resolves every open incident at once with the reason, as one change each, retrying a concurrent save', async () => {
    const store = memoryStore(opened, 1);
    const { changed } = await resolveClusterDeleted(store, 'web', '2026-01-01T10:05:00Z');
    expect(changed.map((i) => i.fingerprint).sort()).toEqual(['a', 'b']);
    for (const inc of Object.values(store.state.incidents)) {
      expect(inc.status).toBe('resolved');
      expect(inc.resolvedAt).toBe('2026-01-01T10:05:00Z');
      expect(inc.changes.at(-1)!.details).toEqual([
        {
          kind: 'resolved',
          missedScans: 0,
          lastSeenAt: '2026-01-01T10:00:00Z',
          lastedMs: 0,
          reason: 'cluster-deleted',
        },
      ]);
    }
    const reply = renderAlertReply(changed[0]!, changed[0]!.changes.at(-1)!);
    expect(JSON.stringify(reply.blocks)).toContain('Resolved: cluster deleted');
  });

  it('a renamed cluster (a second Cluster of its name appeared) says its new name, neutralized', async () => {
    const store = memoryStore(opened);
    const { changed } = await resolveClusterDeleted(store, 'web', '2026-01-01T10:05:00Z', 'team-a/web*<!here>*');
    expect(changed[0]!.changes.at(-1)!.details[0]).toMatchObject({
      kind: 'resolved',
      reason: 'cluster-renamed',
      renamedTo: 'team-a/web*<!here>*',
    });
    const text = JSON.stringify(renderAlertReply(changed[0]!, changed[0]!.changes.at(-1)!).blocks);
    expect(text).toContain('Resolved here: cluster renamed');
    expect(text).not.toContain('<!here>');
  });

  it('changes nothing when no incident is open (a second call, or a cluster that never alerted)', async () => {
    const store = memoryStore(opened);
    await resolveClusterDeleted(store, 'web', '2026-01-01T10:05:00Z');
    const after = store.state;
    expect((await resolveClusterDeleted(store, 'web', '2026-01-01T10:06:00Z')).changed).toEqual([]);
    expect(store.state).toBe(after);
  });
});
