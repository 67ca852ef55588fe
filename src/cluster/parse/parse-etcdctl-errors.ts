import type { EtcdCommand, EtcdCommandError } from '../snapshot.js';

/** Lines kept per command: etcd's client retries print one warning per attempt (99 in real captures). */
const MAX_ERRORS = 20;
const MAX_LENGTH = 300;

/**
 * What etcdctl printed on stderr for one command (dump `etcd/<command>.err`, or error text saved in
 * place of the JSON), as one entry per distinct error. Recognised lines, from etcdctl 3.4–3.6:
 *
 * - `Failed to get the status of endpoint <ep> (<error>)` — endpoint status, per endpoint;
 * - `<ep> is unhealthy: failed to commit proposal: <error>` (or `failed to connect:`) — endpoint health;
 * - `{"level":"warn",…,"target":"endpoint://client-…/<host:port>",…,"error":"rpc error: code = … desc = <error>"}`
 *   — the client's retry warnings; the endpoint is the last part of a 3.4 `target` (3.5+ `etcd-endpoints://`
 *   targets name the client's first endpoint, not the one asked: no endpoint then);
 * - `Error: <error>` — the command failed as a whole (`Error: context deadline exceeded`);
 * - any other line (another tool's own message) is kept whole as a command-level error.
 *
 * Healthy lines (`… is healthy: …`), zap lines without an error and `command terminated with exit
 * code N` (kubectl exec) are not errors and are skipped. Untrusted text: kept verbatim, one line each.
 */
export function parseEtcdctlErrors(text: string, command: EtcdCommand): EtcdCommandError[] {
  const out: EtcdCommandError[] = [];
  const seen = new Set<string>();
  const add = (error: string, endpoint?: string) => {
    const e = clip(error);
    if (!e) return;
    const key = `${endpoint ?? ''}\u0000${e}`;
    if (seen.has(key) || out.length >= MAX_ERRORS) return;
    seen.add(key);
    out.push(endpoint ? { command, endpoint, error: e } : { command, error: e });
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('{')) {
      const zap = readZapLine(line);
      if (zap === 'not-json') add(line);
      else if (zap) add(zap.error, zap.endpoint);
      continue;
    }
    let m = /^Failed to get the status of endpoint (\S+) \((.*)\)$/.exec(line);
    if (m) {
      add(m[2]!, m[1]);
      continue;
    }
    m = /^(\S+) is unhealthy: (?:failed to commit proposal|failed to connect): (.*)$/.exec(line);
    if (m) {
      add(m[2]!, m[1]);
      continue;
    }
    m = /^Error:\s+(.*)$/.exec(line);
    if (m) {
      add(m[1]!);
      continue;
    }
    if (/^\S+ is healthy: /.test(line) || /^command terminated with exit code \d+$/.test(line)) continue;
    add(line);
  }
  return out;
}

/** True when a file meant to hold etcdctl JSON holds its error output instead (`2>&1` redirects). */
export function isEtcdctlErrorText(text: string): boolean {
  const first =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  return (
    /^Error:\s/.test(first) ||
    /^Failed to get the status of endpoint /.test(first) ||
    /^\S+ is unhealthy: /.test(first) ||
    (/^\{"level":/.test(first) && readZapLine(first) !== 'not-json')
  );
}

/** etcdctl's own words for an error, so `dump` writes what a reader of etcdctl output expects. */
export function formatEtcdctlErrors(errors: EtcdCommandError[]): string {
  const lines = errors.map((e) => {
    if (!e.endpoint) return `Error: ${e.error}`;
    if (e.command === 'endpoint status') return `Failed to get the status of endpoint ${e.endpoint} (${e.error})`;
    if (e.command === 'endpoint health') return `${e.endpoint} is unhealthy: failed to commit proposal: ${e.error}`;
    // Member and alarm lists name no endpoint in etcdctl's own lines: the client's retry warning does.
    return JSON.stringify({
      level: 'warn',
      msg: 'retrying of unary invoker failed',
      target: `endpoint://client/${e.endpoint}`,
      error: e.error,
    });
  });
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A zap JSON log line of etcd's client: its error and endpoint; undefined when it holds no error. */
function readZapLine(line: string): { error: string; endpoint?: string } | undefined | 'not-json' {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return 'not-json';
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 'not-json';
  const rec = doc as Record<string, unknown>;
  if (typeof rec.error !== 'string' || !rec.error) return undefined;
  // "rpc error: code = Unavailable desc = etcdserver: no leader" → "etcdserver: no leader"
  const desc = /desc = (.*)$/s.exec(rec.error);
  const error = desc ? desc[1]! : rec.error;
  const target = typeof rec.target === 'string' ? rec.target : '';
  // etcd 3.4 (`endpoint://client-<uuid>/<host:port>`) names the endpoint it dialed. From 3.5 on
  // (`etcd-endpoints://0x…/<host:port>`) the host is the client's FIRST endpoint whatever was dialed
  // (client/v3 client.go `dial`: authority(c.endpoints[0])): openshift/origin#27496 shows a retry on
  // 10.0.151.23 for the dial of 10.0.189.153, while 10.0.151.23 answered. It names no endpoint then.
  const m = /^([a-z-]+):\/\/[^/]*\/(.+)$/.exec(target);
  const endpoint = m && m[1] !== 'etcd-endpoints' ? m[2] : undefined;
  return endpoint ? { error, endpoint } : { error };
}

function clip(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_LENGTH ? `${flat.slice(0, MAX_LENGTH - 3)}...` : flat;
}
