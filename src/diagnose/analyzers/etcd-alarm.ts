import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findLogsOnEtcd } from '../facts/find-logs-on-etcd.js';
import { describeMember } from '../facts/format-member-id.js';
import { formatBytes } from '../facts/format-bytes.js';

/**
 * What each alarm means and what a person does about it, in our words after the etcd maintenance
 * guide ("Space quota": compact, defragment, disarm) and its data-corruption page. There is no
 * catalog action for these (they rewrite etcd's storage): the steps are text, never executed.
 */
const ALARMS: Record<string, { effect: string; cause: string; steps: string[] }> = {
  NOSPACE: {
    effect: 'the cluster only accepts reads and deletes',
    cause:
      "A member's backend database grew past etcd's space quota (--quota-backend-bytes, 2 GiB unless set), so etcd raised a cluster-wide NOSPACE alarm " +
      'and refuses every write until the alarm is disarmed: the API server fails creates and updates ("etcdserver: mvcc: database space exceeded"), ' +
      'leases and leader elections of controllers expire, running workloads keep serving.',
    steps: [
      'Read the current revision and sizes: etcdctl endpoint status -w table (DB SIZE per member) and -w json (header.revision).',
      'Compact history older than the current revision: etcdctl compact <revision> (old revisions become unreadable; watches that lag are cancelled).',
      'Defragment one member at a time, the leader last: etcdctl defrag --endpoints=<member>; a member answers nothing while it defragments.',
      'Check every DB SIZE is now well under the quota: etcdctl endpoint status -w table.',
      'Disarm the alarm: etcdctl alarm disarm; etcdctl alarm list must then print nothing.',
      'If the data really needs the space, raise --quota-backend-bytes on every member (kubeadm: the etcd static pod manifest), and keep auto-compaction on.',
    ],
  },
  CORRUPT: {
    effect: 'the cluster refuses writes to protect the data',
    cause:
      "etcd's corruption check found members whose stored data differ (hash mismatch) and raised a CORRUPT alarm: the cluster refuses writes " +
      'until a person removes the bad copy. Disarming first would let the members diverge further.',
    steps: [
      'Do not disarm yet. Find the member whose data differs: etcdctl endpoint hashkv --cluster, and the etcd logs, which name it.',
      'Save a snapshot from a healthy member: etcdctl snapshot save <file> --endpoints=<healthy member>.',
      'Replace the corrupted member: etcdctl member remove <hex id>, wipe its data directory, add it back (etcdctl member add) so it syncs from the leader; or restore the cluster from the snapshot (etcd disaster recovery guide).',
      'Then disarm: etcdctl alarm disarm, and check that etcdctl alarm list prints nothing.',
    ],
  },
};

/**
 * A raised etcd alarm (NOSPACE, CORRUPT) is a critical finding of its own, never a healthy
 * etcd. Read from `etcdctl alarm list`, endpoint status errors ("memberID:… alarm:NOSPACE ") or the
 * live maintenance alarm list; from pod logs only when the dump has no etcd data at all.
 */
export const etcdAlarmAnalyzer: Analyzer = {
  id: 'etcd.alarm',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const etcd = snap.etcd;
    const byType = new Map<string, { memberIds: string[]; quotes: string[] }>();
    const add = (alarm: string, memberId: string | undefined, quote: string) => {
      const entry = byType.get(alarm) ?? { memberIds: [], quotes: [] };
      if (memberId && !entry.memberIds.includes(memberId)) entry.memberIds.push(memberId);
      entry.quotes.push(quote);
      byType.set(alarm, entry);
    };
    const members = etcd?.members ?? [];
    for (const a of etcd?.alarms ?? []) {
      if (a.alarm === 'NONE') continue;
      add(
        a.alarm,
        a.memberId,
        `alarm list: memberID:${a.memberId} (${describeMember(a.memberId, members)}) alarm:${a.alarm}`,
      );
    }
    // etcdctl endpoint health of 3.5+ says "Active Alarm(s): NOSPACE" even when no alarm list was saved.
    for (const h of etcd?.health ?? []) {
      for (const m of (h.error ?? '').matchAll(/Active Alarm\(s\):\s*([A-Z_ ]+)/g)) {
        for (const alarm of m[1]!.trim().split(/\s+/))
          if (alarm && alarm !== 'NONE' && !byType.has(alarm))
            add(alarm, undefined, `endpoint health ${h.endpoint}: ${h.error}`);
      }
    }
    const fromLogs = !etcd;
    if (fromLogs) for (const l of findLogsOnEtcd(snap).alarms) add(l.alarm, undefined, l.quote);

    return [...byType.entries()].map(([alarm, found]) => {
      const known = ALARMS[alarm];
      const who = found.memberIds.map((id) => describeMember(id, members));
      const evidence = [...new Set(found.quotes)].slice(0, 6);
      for (const ep of etcd?.endpoints ?? []) {
        if (ep.dbSize !== undefined) evidence.push(`endpoint status ${ep.endpoint}: dbSize ${formatBytes(ep.dbSize)}`);
      }
      const draft: FindingDraft = {
        id: 'etcd.alarm',
        severity: 'critical',
        section: 'etcd',
        title: `etcd alarm ${alarm}${who.length ? ` raised by ${who.join(', ')}` : ''}: ${known?.effect ?? 'etcd reports an active alarm'}`,
        subject: { kind: 'EtcdAlarm', name: alarm },
        evidence,
        cause:
          known?.cause ??
          `etcd reports an active ${alarm} alarm: read the etcd logs of the member that raised it before disarming it.`,
        // No catalog action rewrites etcd storage: a person follows the steps.
        remediations: [],
        steps: known?.steps ?? [
          'Read the etcd logs of the member that raised the alarm; disarm it (etcdctl alarm disarm) only once its cause is fixed.',
        ],
      };
      if (found.memberIds.length) draft.ids = { alarmMemberIds: found.memberIds.join(',') };
      if (fromLogs) {
        draft.missing = [
          'no etcdctl alarm list or etcd probe: judged from pod logs, the alarm may have been disarmed since',
        ];
        draft.confidence = 'medium';
      }
      return draft;
    });
  },
};
