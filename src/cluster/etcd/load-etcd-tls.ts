import { readFile } from 'node:fs/promises';
import type { ClusterConfig } from '../../config/config-schema.js';
import type { EtcdTlsMaterial } from './create-etcd-client.js';
import type { PartialEntry } from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';

const FILE_KEYS = [
  ['caFile', 'ca'],
  ['certFile', 'cert'],
  ['keyFile', 'key'],
] as const;

/**
 * Read the etcd TLS files named in the config. A file that cannot be read becomes a partial entry
 * naming the file and the config key (the probe is then skipped by the caller: probing without the
 * certificates would report every member unhealthy, a false "etcd down").
 */
export async function loadEtcdTls(
  cfg: NonNullable<ClusterConfig['etcd']>,
): Promise<{ tls?: EtcdTlsMaterial; partial: PartialEntry[] }> {
  const tls: EtcdTlsMaterial = {};
  const partial: PartialEntry[] = [];
  for (const [cfgKey, field] of FILE_KEYS) {
    const file = cfg[cfgKey];
    if (!file) continue;
    try {
      tls[field] = await readFile(file);
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code ?? describeError(err);
      partial.push({
        source: `etcd ${cfgKey} ${file}`,
        error: `cannot read ${file} (${reason}): fix etcd.${cfgKey} in the config`,
      });
    }
  }
  const any = tls.ca || tls.cert || tls.key;
  return { tls: any ? tls : undefined, partial };
}
