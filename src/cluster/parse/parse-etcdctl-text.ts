import type { EtcdEndpointStatus, EtcdMember } from '../snapshot.js';
import { CaptureParseError } from './capture-parse-error.js';

/**
 * etcdctl's `-w table` and default (simple) output of `member list` and `endpoint status`: what issue
 * reports and runbooks paste (etcd-io/etcd#11537, openshift/origin#27496). Both print the member id in
 * hex (`%x`); it comes back as the exact decimal string the JSON readers produce.
 *
 * Columns (etcdctl/ctlv3/command/printer.go of each release):
 * - member list: ID, STATUS, NAME, PEER ADDRS, CLIENT ADDRS, IS LEARNER (3.3 has no IS LEARNER);
 * - endpoint status, 3.4/3.5: ENDPOINT, ID, VERSION, DB SIZE, IS LEADER, IS LEARNER, RAFT TERM, RAFT INDEX,
 *   RAFT APPLIED INDEX, ERRORS; 3.3: ENDPOINT, ID, VERSION, DB SIZE, IS LEADER, RAFT TERM, RAFT INDEX;
 *   3.6: ENDPOINT, ID, VERSION, STORAGE VERSION, DB SIZE, IN USE, PERCENTAGE NOT IN USE, QUOTA, IS LEADER,
 *   IS LEARNER, RAFT TERM, RAFT INDEX, RAFT APPLIED INDEX, ERRORS, DOWNGRADE TARGET VERSION, DOWNGRADE ENABLED.
 *   A table is read by its header. The simple output has no header: each line's layout is told by its
 *   fields (simpleStatusColumns), and the ERRORS, themselves joined with ", ", take what is left between
 *   the columns before and after them.
 *
 * Unlike JSON, endpoint status text does not name each member's leader, only IS LEADER. A member follows
 * the leader row when it is at the leader's raft term and reports no error (Raft has one leader per term;
 * a member without one reports "etcdserver: no leader"). When no row is the leader (etcd 3.3 asked on two
 * followers) or a member is at another term, whom it follows is not printed: the row is kept as an answer
 * with `leaderNotShown`, never read as "no leader" (not shown is not absent). `endpoint health` decides:
 * a committed proposal proves a leader.
 */

interface Row {
  [column: string]: string;
}

/** True when the text is etcdctl's table or simple output rather than JSON. */
export function isEtcdctlText(text: string): boolean {
  return !/^\s*[[{]/.test(text);
}

export function parseMemberListText(text: string): EtcdMember[] {
  const columns = ['ID', 'STATUS', 'NAME', 'PEER ADDRS', 'CLIENT ADDRS', 'IS LEARNER'];
  const rows = readRows(text, 'member list', columns, (f) =>
    f.length === 5 || f.length === 6 ? columns.slice(0, f.length) : undefined,
  );
  return rows.map((r, i) => {
    const id = hexToDecimal(r['ID']);
    if (id === undefined) throw new CaptureParseError(`member list: row ${i + 1} has no valid hex ID "${r['ID']}"`);
    return {
      id,
      name: r['NAME'] ?? '',
      peerURLs: urls(r['PEER ADDRS']),
      clientURLs: urls(r['CLIENT ADDRS']),
      isLearner: r['IS LEARNER'] === 'true',
    };
  });
}

const STATUS_COLUMNS = [
  'ENDPOINT',
  'ID',
  'VERSION',
  'DB SIZE',
  'IS LEADER',
  'IS LEARNER',
  'RAFT TERM',
  'RAFT INDEX',
  'RAFT APPLIED INDEX',
  'ERRORS',
];
const STATUS_COLUMNS_33 = ['ENDPOINT', 'ID', 'VERSION', 'DB SIZE', 'IS LEADER', 'RAFT TERM', 'RAFT INDEX'];
const STATUS_COLUMNS_36 = [
  'ENDPOINT',
  'ID',
  'VERSION',
  'STORAGE VERSION',
  'DB SIZE',
  'IN USE',
  'PERCENTAGE NOT IN USE',
  'QUOTA',
  'IS LEADER',
  'IS LEARNER',
  'RAFT TERM',
  'RAFT INDEX',
  'RAFT APPLIED INDEX',
  'ERRORS',
  'DOWNGRADE TARGET VERSION',
  'DOWNGRADE ENABLED',
];

/**
 * Which release printed a simple `endpoint status` line, told by its fields: 3.6 has a size where the
 * others print IS LEADER (its 5th field); 3.3 has the raft term (digits) where 3.4/3.5 print IS LEARNER.
 */
function simpleStatusColumns(f: string[]): string[] | undefined {
  const bool = (v: string | undefined) => v === 'true' || v === 'false';
  if (f.length >= 16 && parseSize(f[4]) !== undefined && bool(f[8])) return STATUS_COLUMNS_36;
  if (f.length === 7 && bool(f[4]) && /^\d+$/.test(f[5] ?? '')) return STATUS_COLUMNS_33;
  if (f.length >= 10 && bool(f[4]) && bool(f[5])) return STATUS_COLUMNS;
  return undefined;
}

export function parseEndpointStatusText(text: string): EtcdEndpointStatus[] {
  const rows = readRows(text, 'endpoint status', STATUS_COLUMNS, simpleStatusColumns);
  const out = rows.map((r, i) => {
    const memberId = hexToDecimal(r['ID']);
    if (!r['ENDPOINT'] || memberId === undefined)
      throw new CaptureParseError(`endpoint status: row ${i + 1} has no endpoint or no valid hex ID`);
    const errors = r['ERRORS'] ? r['ERRORS'].split(/,\s*/).filter((e) => e.trim() !== '') : [];
    const s: EtcdEndpointStatus = { endpoint: r['ENDPOINT'], memberId, errors, isLearner: r['IS LEARNER'] === 'true' };
    if (r['VERSION']) s.version = r['VERSION'];
    const size = parseSize(r['DB SIZE']);
    if (size !== undefined) s.dbSize = size;
    for (const [col, key] of [
      ['RAFT TERM', 'raftTerm'],
      ['RAFT INDEX', 'raftIndex'],
      ['RAFT APPLIED INDEX', 'raftAppliedIndex'],
    ] as const) {
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
    else s.leaderNotShown = true;
  }
  return out.map((x) => x.s);
}

/**
 * Rows of a `-w table` (header row read, borders skipped) or of the simple output (comma-separated,
 * positional: `layout` names the columns of a line by its fields, or refuses it). A column named ERRORS
 * takes every field between the columns before it and those after it: the errors are themselves
 * joined with ", ".
 */
function readRows(
  text: string,
  what: string,
  columns: string[],
  layout: (fields: string[]) => string[] | undefined,
): Row[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return [];
  if (lines[0]!.startsWith('+') || lines[0]!.startsWith('|')) {
    const cells = lines
      .filter((l) => l.startsWith('|'))
      .map((l) =>
        l
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((c) => c.trim()),
      );
    const header = (cells.shift() ?? []).map((h) => h.toUpperCase());
    for (const need of columns.slice(0, 2))
      if (!header.includes(need)) throw new CaptureParseError(`${what}: table without an ${need} column`);
    return cells.map((c) => Object.fromEntries(header.map((h, i) => [h, c[i] ?? ''])));
  }
  return lines.map((line) => {
    // An empty last column (no ERRORS) leaves the line ending in ", ", which the trim above cut to ",".
    const f = (line.endsWith(',') ? `${line} ` : line).split(', ').map((c) => c.trim());
    const cols = layout(f);
    if (!cols)
      throw new CaptureParseError(`${what}: not etcdctl output (-w json, table or simple): "${line.slice(0, 80)}"`);
    const e = cols.indexOf('ERRORS');
    const after = e < 0 ? 0 : cols.length - e - 1;
    const fields =
      e < 0 || f.length === cols.length
        ? f
        : [...f.slice(0, e), f.slice(e, f.length - after).join(', '), ...f.slice(f.length - after)];
    return Object.fromEntries(cols.map((c, i) => [c, fields[i] ?? '']));
  });
}

function hexToDecimal(hex: string | undefined): string | undefined {
  if (!hex || !/^[0-9a-f]{1,16}$/i.test(hex)) return undefined;
  return BigInt(`0x${hex}`).toString();
}

function urls(cell: string | undefined): string[] {
  return (cell ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** "84 MB", "25 kB", "2.2 MB" (humanize.Bytes, SI units) → bytes, approximate as printed. */
function parseSize(cell: string | undefined): number | undefined {
  const m = /^([\d.]+)\s*(B|kB|MB|GB|TB)$/.exec(cell ?? '');
  if (!m) return undefined;
  const mult: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };
  return Math.round(Number(m[1]) * mult[m[2]!]!);
}
