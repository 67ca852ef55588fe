import { compareDecimal } from './compare-decimal.js';
import type { EtcdEndpointHealth, EtcdEndpointStatus, EtcdMember, EtcdState } from '../snapshot.js';
import { isEtcdctlText, parseEndpointStatusText, parseMemberListText } from './parse-etcdctl-text.js';
import { CaptureParseError } from './capture-parse-error.js';

/**
 * Parse JSON printed by `etcdctl -w json` without losing uint64 precision.
 *
 * etcdctl prints member ids, cluster ids and raft indexes as BARE JSON numbers; `JSON.parse` turns
 * 3319814642761637952 into 3319814642761638000 (docs/development.md, "Stack notes"). Every integer literal of 16 or
 * more digits (2^53 has 16) is quoted before JSON.parse, by a pass that skips string literals, so those values come
 * back as exact decimal strings. Shorter integers stay numbers (always exact).
 */
export function parseEtcdctlJson(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

/**
 * `etcdctl member list -w json` → members (ids as decimal strings; 3.4 omits `isLearner` when false).
 * The table and simple outputs are read too (parse-etcdctl-text.ts).
 */
export function parseMemberList(text: string): EtcdMember[] {
  if (text.trim() === '') return [];
  if (isEtcdctlText(text)) return parseMemberListText(text);
  return listOf(text, 'member list', 'members').map((raw, i) => {
    const id = toDecimal(raw.ID);
    if (id === undefined) throw new CaptureParseError(`member list: members[${i}] has no valid "ID"`);
    return {
      id,
      // A member added but not started yet has no name and no client URLs.
      name: typeof raw.name === 'string' ? raw.name : '',
      peerURLs: strings(raw.peerURLs),
      clientURLs: strings(raw.clientURLs),
      isLearner: raw.isLearner === true,
    };
  });
}

/**
 * `etcdctl endpoint status -w json` → one entry per endpoint that answered. A dead endpoint is left
 * out by etcdctl (reported on stderr only), so it stays absent here too. `leader` is absent when the
 * endpoint knows none (3.4 omits it; 0 means none); errors such as "etcdserver: no leader" or
 * "memberID:… alarm:NOSPACE " are kept verbatim (see alarmsFromEndpoints). The table and simple
 * outputs are read too (parse-etcdctl-text.ts: they name only the leader row).
 */
export function parseEndpointStatus(text: string): EtcdEndpointStatus[] {
  if (text.trim() === '') return [];
  if (isEtcdctlText(text)) return parseEndpointStatusText(text);
  const doc = parseEtcdctlJson(text);
  const list = Array.isArray(doc) ? doc : [doc];
  return list.map((raw, i) => {
    if (!isRecord(raw) || typeof raw.Endpoint !== 'string')
      throw new CaptureParseError(`endpoint status: entry ${i} has no "Endpoint"`);
    const st = isRecord(raw.Status) ? raw.Status : {};
    const header = isRecord(st.header) ? st.header : {};
    const out: EtcdEndpointStatus = { endpoint: raw.Endpoint, errors: strings(st.errors) };
    setDecimal(out, 'memberId', header.member_id);
    const leader = toDecimal(st.leader);
    if (leader !== undefined && leader !== '0') out.leader = leader;
    setDecimal(out, 'raftTerm', st.raftTerm ?? header.raft_term);
    setDecimal(out, 'raftIndex', st.raftIndex);
    setDecimal(out, 'raftAppliedIndex', st.raftAppliedIndex);
    if (typeof st.version === 'string' && st.version) out.version = st.version;
    const dbSize =
      typeof st.dbSize === 'number' ? st.dbSize : typeof st.dbSize === 'string' ? Number(st.dbSize) : undefined;
    if (dbSize !== undefined && Number.isFinite(dbSize)) out.dbSize = dbSize;
    // etcd 3.4+ omits isLearner when false.
    out.isLearner = st.isLearner === true;
    return out;
  });
}

/**
 * `etcdctl endpoint health` in each of its forms: `-w json` (one entry per endpoint; unhealthy ones carry
 * `error`), `-w table` (ENDPOINT | HEALTH | TOOK | ERROR, etcd-io/etcd#13692) and the simple output
 * (`<ep> is healthy: successfully committed proposal: took = 2.09ms`, unhealthy lines `<ep> is unhealthy:
 * failed to commit proposal: <error>` or `failed to connect: <error>`): what docs and issue reports show,
 * and what an SRE pastes. The endpoint is kept as etcdctl printed it, with or without a scheme or a port
 * ("192.168.233.131 is unhealthy: …"). Lines the etcd client logs to stderr around it (zap JSON warnings,
 * glog "I | warning: …" lines, a closing "Error: unhealthy cluster") are skipped when saved with `2>&1`.
 */
export function parseEndpointHealth(text: string): EtcdEndpointHealth[] {
  if (text.trim() === '') return [];
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !isClientLogLine(l));
  if (lines.length === 0) throw new CaptureParseError('endpoint health: only etcd client log lines, no endpoint');
  const first = lines[0]!;
  if (first.startsWith('+') || first.startsWith('|')) return parseEndpointHealthTable(lines);
  if (!/^[[{]/.test(first)) return parseEndpointHealthLines(lines);
  const doc = parseEtcdctlJson(lines.join('\n'));
  const list = Array.isArray(doc) ? doc : [doc];
  return list.map((raw, i) => {
    if (!isRecord(raw) || typeof raw.endpoint !== 'string')
      throw new CaptureParseError(`endpoint health: entry ${i} has no "endpoint"`);
    const out: EtcdEndpointHealth = { endpoint: raw.endpoint, health: raw.health === true };
    // etcdctl prints took "" when it could not even create a client: treat as unknown.
    if (typeof raw.took === 'string' && raw.took) out.took = raw.took;
    if (typeof raw.error === 'string' && raw.error) out.error = raw.error;
    return out;
  });
}

/**
 * A line the etcd client logs to stderr: a zap JSON warning, or a glog line ("2017-06-08 13:25:45.138292 I | warning:
 * …").
 */
function isClientLogLine(line: string): boolean {
  return (
    /^\{"level":/.test(line) ||
    /^\d{4}[-/]\d\d[-/]\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)? [IWEF] \| /.test(line) ||
    /^Error:\s/.test(line)
  );
}

function parseEndpointHealthTable(lines: string[]): EtcdEndpointHealth[] {
  const cells = lines
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
  const header = (cells.shift() ?? []).map((h) => h.toUpperCase());
  const col = (name: string) => header.indexOf(name);
  if (col('ENDPOINT') < 0 || col('HEALTH') < 0)
    throw new CaptureParseError('endpoint health: table without ENDPOINT and HEALTH columns');
  return cells.map((c, i) => {
    const endpoint = c[col('ENDPOINT')] ?? '';
    const health = c[col('HEALTH')];
    if (!endpoint || (health !== 'true' && health !== 'false'))
      throw new CaptureParseError(`endpoint health: table row ${i + 1} has no endpoint or no true/false HEALTH`);
    const out: EtcdEndpointHealth = { endpoint, health: health === 'true' };
    const took = col('TOOK') >= 0 ? c[col('TOOK')] : '';
    if (took) out.took = took;
    const error = col('ERROR') >= 0 ? c[col('ERROR')] : '';
    if (error) out.error = error;
    return out;
  });
}

function parseEndpointHealthLines(lines: string[]): EtcdEndpointHealth[] {
  const out: EtcdEndpointHealth[] = [];
  for (const line of lines) {
    let m = /^(\S+) is healthy: successfully committed proposal: took = (.+)$/.exec(line);
    if (m) {
      out.push({ endpoint: m[1]!, health: true, took: m[2]!.trim() });
      continue;
    }
    m = /^(\S+) is unhealthy: (?:failed to commit proposal|failed to connect): (.*)$/.exec(line);
    if (m) {
      out.push({ endpoint: m[1]!, health: false, error: m[2]!.trim() });
      continue;
    }
    throw new CaptureParseError(
      `endpoint health: not etcdctl output (-w json, table or simple): "${line.slice(0, 80)}"`,
    );
  }
  return out;
}

/**
 * `etcdctl alarm list -w json` → alarms. The alarm type is a number in etcdctl's output
 * (1 NOSPACE, 2 CORRUPT); a name is accepted too. The simple output, one
 * `memberID:13803658152347727308 alarm:NOSPACE` per line (etcd maintenance guide), is read too.
 */
export function parseAlarmList(text: string): EtcdState['alarms'] {
  if (text.trim() === '') return [];
  if (!/^\s*[[{]/.test(text)) return parseAlarmLines(text);
  return listOf(text, 'alarm list', 'alarms').map((raw, i) => {
    const memberId = toDecimal(raw.memberID);
    if (memberId === undefined) throw new CaptureParseError(`alarm list: alarms[${i}] has no valid "memberID"`);
    const alarm = alarmName(raw.alarm);
    return { memberId, alarm };
  });
}

function parseAlarmLines(text: string): EtcdState['alarms'] {
  const out: EtcdState['alarms'] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^memberID:(\d+)\s+alarm:([A-Z_]+)$/.exec(line);
    const memberId = m ? toDecimal(m[1]) : undefined;
    if (!m || memberId === undefined)
      throw new CaptureParseError(`alarm list: not etcdctl output (-w json or simple): "${line.slice(0, 80)}"`);
    out.push({ memberId, alarm: m[2]! });
  }
  return out;
}

/** etcd's AlarmType enum, as etcdctl prints it in JSON. */
const ALARM_NAMES: Record<number, string> = { 0: 'NONE', 1: 'NOSPACE', 2: 'CORRUPT' };

/**
 * etcd's name of an alarm type, whatever form it came in: etcdctl JSON prints the enum number,
 * the etcd3 client its proto name ("NOSPACE") or a TypeScript enum key ("Nospace").
 */
export function alarmName(v: unknown): string {
  if (typeof v === 'number') return ALARM_NAMES[v] ?? String(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return ALARM_NAMES[Number(v)] ?? v;
  return typeof v === 'string' && v ? v.toUpperCase() : 'NONE';
}

/**
 * Alarms reported in endpoint status `errors` ("memberID:15300616325842721311 alarm:NOSPACE "),
 * deduplicated and sorted by member id then alarm (every endpoint repeats the cluster's alarms).
 */
export function alarmsFromEndpoints(endpoints: EtcdEndpointStatus[]): EtcdState['alarms'] {
  const seen = new Map<string, { memberId: string; alarm: string }>();
  for (const ep of endpoints) {
    for (const err of ep.errors) {
      const m = /memberID:(\d+)\s+alarm:([A-Z_]+)/.exec(err);
      if (m) seen.set(`${m[1]} ${m[2]}`, { memberId: m[1] as string, alarm: m[2] as string });
    }
  }
  return [...seen.values()].sort(
    (a, b) => compareDecimal(a.memberId, b.memberId) || (a.alarm < b.alarm ? -1 : a.alarm > b.alarm ? 1 : 0),
  );
}

/** Quote integer literals of ≥ 16 digits outside string literals, so JSON.parse keeps them exact. */
function quoteLongIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
      i++;
      continue;
    }
    if (ch === 0x2d /* - */ || isDigit(ch)) {
      const start = i;
      if (ch === 0x2d) i++;
      const digitsStart = i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      const digits = i - digitsStart;
      let integer = true;
      // A fraction or exponent makes it a float: leave it to JSON.parse.
      while (i < text.length && /[.eE+\-0-9]/.test(text[i] as string)) {
        integer = false;
        i++;
      }
      if (integer && digits >= 16) {
        out += `${text.slice(last, start)}"${text.slice(start, i)}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return out + text.slice(last);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** An id or counter as an exact decimal string: quoted long integers arrive as strings, short ones as numbers. */
function toDecimal(v: unknown): string | undefined {
  // uint64 only: a larger id is no etcd id (overflowed ids are a clear error, not a silent member).
  if (typeof v === 'string' && /^\d+$/.test(v))
    return v.length <= 20 && BigInt(v) <= 0xffffffffffffffffn ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  return undefined;
}

function setDecimal(
  target: EtcdEndpointStatus,
  key: 'memberId' | 'raftTerm' | 'raftIndex' | 'raftAppliedIndex',
  v: unknown,
): void {
  const d = toDecimal(v);
  if (d !== undefined) target[key] = d;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * The objects of the array at `key` of etcdctl's JSON object (absent: none); one line naming what is wrong otherwise.
 */
function listOf(text: string, what: string, key: string): Record<string, unknown>[] {
  const doc = parseEtcdctlJson(text);
  if (!isRecord(doc)) throw new CaptureParseError(`${what}: expected a JSON object with "${key}"`);
  const list = doc[key] === undefined ? [] : doc[key];
  if (!Array.isArray(list)) throw new CaptureParseError(`${what}: "${key}" is not an array`);
  return list.map((raw, i) => {
    if (!isRecord(raw)) throw new CaptureParseError(`${what}: ${key}[${i}] is not an object`);
    return raw;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
