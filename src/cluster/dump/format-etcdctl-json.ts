import { formatEtcdctlErrors } from '../parse/parse-etcdctl-errors.js';
import { alarmsFromEndpoints } from '../parse/parse-etcdctl-json.js';
import type { EtcdCommand, EtcdState } from '../snapshot.js';

/** The DIR/etcd/ file name of each command. */
const FILE_OF: Record<EtcdCommand, string> = {
  'member list': 'member-list',
  'endpoint status': 'endpoint-status',
  'endpoint health': 'endpoint-health',
  'alarm list': 'alarm-list',
};

/** Placeholder for a uint64 that must be printed as a bare JSON number, as etcdctl does. */
const BARE = '__etcdctl_uint64__';

/**
 * The files of DIR/etcd/ for an EtcdState, in `etcdctl -w json` format: one compact line,
 * ids and raft counters as BARE uint64 numbers (never through Number, so they stay exact), fields
 * etcdctl omits when empty left out (isLearner false, no leader, no errors). `alarm-list.json`
 * is written only when the alarms cannot be derived from endpoint status errors again. Failed
 * commands (`errors`, e.g. a live probe that found no leader) go to `<command>.err` in etcdctl's
 * own stderr words, so a dump of a broken etcd says why, not just "0 members".
 * parse-etcdctl-json.ts and parse-etcdctl-errors.ts read every file back to the same EtcdState.
 */
export function formatEtcdctlJson(etcd: EtcdState): Record<string, string> {
  const files: Record<string, string> = {
    'member-list.json': print({
      header: {},
      members: etcd.members.map((m) => ({
        ID: bare(m.id),
        name: m.name,
        peerURLs: m.peerURLs,
        clientURLs: m.clientURLs,
        ...(m.isLearner ? { isLearner: true } : {}),
      })),
    }),
    'endpoint-status.json': print(
      etcd.endpoints.map((ep) => {
        const status: Record<string, unknown> = {
          header: ep.memberId !== undefined ? { member_id: bare(ep.memberId) } : {},
        };
        if (ep.version !== undefined) status.version = ep.version;
        if (ep.dbSize !== undefined) status.dbSize = ep.dbSize;
        if (ep.leader !== undefined) status.leader = bare(ep.leader);
        if (ep.raftIndex !== undefined) status.raftIndex = bare(ep.raftIndex);
        if (ep.raftTerm !== undefined) status.raftTerm = bare(ep.raftTerm);
        if (ep.raftAppliedIndex !== undefined) status.raftAppliedIndex = bare(ep.raftAppliedIndex);
        if (ep.errors.length) status.errors = ep.errors;
        if (ep.isLearner) status.isLearner = true;
        return { Endpoint: ep.endpoint, Status: status };
      }),
    ),
    'endpoint-health.json': print(
      etcd.health.map((h) => ({
        endpoint: h.endpoint,
        health: h.health,
        // etcdctl always prints took ("" when unknown); parseEndpointHealth reads "" as absent.
        took: h.took ?? '',
        ...(h.error !== undefined ? { error: h.error } : {}),
      })),
    ),
  };
  if (JSON.stringify(alarmsFromEndpoints(etcd.endpoints)) !== JSON.stringify(etcd.alarms)) {
    const codes: Record<string, number> = { NONE: 0, NOSPACE: 1, CORRUPT: 2 };
    files['alarm-list.json'] = print({
      header: {},
      alarms: etcd.alarms.map((a) => ({ memberID: bare(a.memberId), alarm: codes[a.alarm] ?? a.alarm })),
    });
  }
  for (const [command, file] of Object.entries(FILE_OF) as [EtcdCommand, string][]) {
    const text = formatEtcdctlErrors((etcd.errors ?? []).filter((e) => e.command === command));
    if (text) files[`${file}.err`] = text;
  }
  return files;
}

/** A decimal string becomes a bare number in the output; anything else stays a quoted string. */
function bare(decimal: string): string {
  return /^\d+$/.test(decimal) ? `${BARE}${decimal}` : decimal;
}

function print(value: unknown): string {
  return `${JSON.stringify(value).replace(new RegExp(`"${BARE}(\\d+)"`, 'g'), '$1')}\n`;
}
