import type { EtcdEndpointStatus, EtcdMember } from '../snapshot.js';

/**
 * etcdctl's `-w table` and default (simple) output of `member list` and `endpoint status`: what issue
 * reports and runbooks paste (etcd-io/etcd#11537, openshift/origin#27496). Both print the member id in
 * hex (`%x`); it comes back as the exact decimal string the JSON readers produce.
 *
 * Columns, etcd 3.4/3.5 (etcdctl/ctlv3/command/printer.go):
 * - member list: ID, STATUS, NAME, PEER ADDRS, CLIENT ADDRS, IS LEARNER (3.3 has no IS LEARNER);
 * - endpoint status: ENDPOINT, ID, VERSION, DB SIZE, IS LEADER, IS LEARNER, RAFT TERM, RAFT INDEX,
 *   RAFT APPLIED INDEX, ERRORS. The table is read by its header, so 3.6's added columns are skipped; the
 *   simple output has no header and is read for the 3.4/3.5 layout only.
 *
 * Unlike JSON, endpoint status text does not name each member's leader, only IS LEADER. A member follows
 * the leader row when it is at the leader's raft term and reports no error (Raft has one leader per term;
 * a member without one reports "etcdserver: no leader"). When no row is the leader and some member reports
 * no such error, whom it follows is not printed: the file is refused with that reason rather than read as
 * "no leader" (issue 13: not shown is not absent).
 */

interface Row {
  [column: string]: string;
}

/** True when the text is etcdctl's table or simple output rather than JSON. */
export function isEtcdctlText(text: string): boolean {
  return !/^\s*[[{]/.test(text);
}

export function parseMemberListText(text: string): EtcdMember[] {
  const rows = readRows(text, 'member list', ['ID', 'STATUS', 'NAME', 'PEER ADDRS', 'CLIENT ADDRS', 'IS LEARNER'], [5, 6]);
  return rows.map((r, i) => {
    const id = hexToDecimal(r['ID']);
    if (id === undefined) throw new Error(`member list: row ${i + 1} has no valid hex ID "${r['ID']}"`);
    return {
      id,
      name: r['NAME'] ?? '',
      peerURLs: urls(r['PEER ADDRS']),
      clientURLs: urls(r['CLIENT ADDRS']),
      isLearner: r['IS LEARNER'] === 'true',
    };
  });
}

const STATUS_COLUMNS = ['ENDPOINT', 'ID', 'VERSION', 'DB SIZE', 'IS LEADER', 'IS LEARNER', 'RAFT TERM', 'RAFT INDEX', 'RAFT APPLIED INDEX', 'ERRORS'];

export function parseEndpointStatusText(text: string): EtcdEndpointStatus[] {
  const rows = readRows(text, 'endpoint status', STATUS_COLUMNS, [10]);
  const out = rows.map((r, i) => {
    const memberId = hexToDecimal(r['ID']);
    if (!r['ENDPOINT'] || memberId === undefined) throw new Error(`endpoint status: row ${i + 1} has no endpoint or no valid hex ID`);
    const errors = r['ERRORS'] ? r['ERRORS'].split(/,\s*/).filter((e) => e.trim() !== '') : [];
    const s: EtcdEndpointStatus = { endpoint: r['ENDPOINT'], memberId, errors, isLearner: r['IS LEARNER'] === 'true' };
    if (r['VERSION']) s.version = r['VERSION'];
    const size = parseSize(r['DB SIZE']);
    if (size !== undefined) s.dbSize = size;
    for (const [col, key] of [['RAFT TERM', 'raftTerm'], ['RAFT INDEX', 'raftIndex'], ['RAFT APPLIED INDEX', 'raftAppliedIndex']] as const) {
      if (/^\d+$/.test(r[col] ?? '')) s[key] = r[col]!;
    }
    return { s, isLeader: r['IS LEADER'] === 'true' };
  });
  const leaders = out.filter((x) => x.isLeader);
  for (const l of leaders) l.s.leader = l.s.memberId!;
  const leader = leaders.length === 1 ? leaders[0]!.s : undefined;
  const knowsNoLeader = (s: EtcdEndpointStatus) => s.errors.some((e) => /no leader/i.test(e));
  for (const { s, isLeader } of out) {
    if (isLeader || knowsNoLeader(s)) continue;
    if (leader && s.raftTerm !== undefined && s.raftTerm === leader.raftTerm) s.leader = leader.memberId!;
    else {
      throw new Error(
        `endpoint status: ${s.endpoint} reports no error and is not the leader, but the text output does not say whom it follows` +
          (leader ? ` (raft term ${s.raftTerm ?? '?'}, leader's ${leader.raftTerm ?? '?'})` : ' (no row is the leader)') +
          ': use -w json',
      );
    }
  }
  return out.map((x) => x.s);
}

/**
 * Rows of a `-w table` (header row read, borders skipped) or of the simple output (comma-separated,
 * positional: `counts` are the field counts accepted; with more, the last column takes the rest — the
 * ERRORS of endpoint status are themselves joined with ", ").
 */
function readRows(text: string, what: string, columns: string[], counts: number[]): Row[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return [];
  if (lines[0]!.startsWith('+') || lines[0]!.startsWith('|')) {
    const cells = lines.filter((l) => l.startsWith('|')).map((l) => l.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
    const header = (cells.shift() ?? []).map((h) => h.toUpperCase());
    for (const need of columns.slice(0, 2)) if (!header.includes(need)) throw new Error(`${what}: table without an ${need} column`);
    return cells.map((c) => Object.fromEntries(header.map((h, i) => [h, c[i] ?? ''])));
  }
  return lines.map((line) => {
    // An empty last column (no ERRORS) leaves the line ending in ", ", which the trim above cut to ",".
    const f = (line.endsWith(',') ? `${line} ` : line).split(', ').map((c) => c.trim());
    const max = Math.max(...counts);
    if (f.length < Math.min(...counts)) throw new Error(`${what}: not etcdctl output (-w json, table or simple): "${line.slice(0, 80)}"`);
    const fields = f.length > max ? [...f.slice(0, max - 1), f.slice(max - 1).join(', ')] : f;
    return Object.fromEntries(columns.slice(0, fields.length).map((c, i) => [c, fields[i]!]));
  });
}

function hexToDecimal(hex: string | undefined): string | undefined {
  if (!hex || !/^[0-9a-f]{1,16}$/i.test(hex)) return undefined;
  return BigInt(`0x${hex}`).toString();
}

function urls(cell: string | undefined): string[] {
  return (cell ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
}

/** "84 MB", "25 kB", "2.2 MB" (humanize.Bytes, SI units) → bytes, approximate as printed. */
function parseSize(cell: string | undefined): number | undefined {
  const m = /^([\d.]+)\s*(B|kB|MB|GB|TB)$/.exec(cell ?? '');
  if (!m) return undefined;
  const mult: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };
  return Math.round(Number(m[1]) * mult[m[2]!]!);
}
