/**
 * One short line for an etcd3/gRPC error, as an SRE would read it in a report:
 * "deadline exceeded", "unavailable: connect ECONNREFUSED 127.0.0.1:2379", "etcdserver: no leader".
 * gRPC prefixes messages with "<code> <NAME>: " and etcd3 may wrap them; both are noise here.
 */
export function describeEtcdError(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  if (/DEADLINE_EXCEEDED|deadline exceeded/i.test(raw)) return 'deadline exceeded';
  const m = /^\d+ ([A-Z_]+): (.*)$/s.exec(raw.trim());
  if (!m) return raw.trim();
  const [, name, rest] = m;
  if (/^etcdserver: /.test(rest!)) return rest!;
  return `${name!.toLowerCase()}: ${rest}`;
}
