import { describeError } from '../../errors/describe-error.js';

/**
 * One short line for an etcd3/gRPC error, as an SRE would read it in a report:
 * "deadline exceeded", "unavailable: connect ECONNREFUSED 127.0.0.1:2379", "etcdserver: no leader".
 * gRPC prefixes messages with "<code> <NAME>: " and wraps socket errors in resolver prose; both are
 * noise in a report line.
 */
export function describeEtcdError(err: unknown): string {
  const raw = describeError(err).trim();
  if (/DEADLINE_EXCEEDED|deadline exceeded/i.test(raw)) return 'deadline exceeded';
  const m = /^\d+ ([A-Z_]+): (.*)$/s.exec(raw);
  if (!m) return raw;
  const name = m[1]!.toLowerCase();
  let rest = m[2]!;
  if (rest.startsWith('etcdserver: ')) return rest;
  const socket = /Last error: (?:Error: )?(.*?)(?:\.\s*Resolution note:.*)?$/s.exec(rest);
  if (socket) rest = socket[1]!;
  return `${name}: ${rest}`;
}
