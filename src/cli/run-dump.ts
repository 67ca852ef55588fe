import { readSnapshot } from '../cluster/read-snapshot.js';
import { writeDump } from '../cluster/dump/write-dump.js';
import type { CliIo } from './cli-io.js';
import { assertKubeconfigFiles } from './assert-kubeconfig-files.js';
import { resolveCluster, resolveConfig } from './resolve-config.js';

/** `k8s-health dump --cluster NAME --out DIR`: a configured cluster's snapshot in the dump format. */
export async function runDump(opts: { cluster?: string; config?: string; out: string }, io: CliIo): Promise<number> {
  const { config, file } = await resolveConfig(opts.config, io.env, true);
  const cluster = await resolveCluster(config, opts.cluster, file);
  assertKubeconfigFiles(cluster, file);
  const snapshot = await readSnapshot(cluster, { now: io.now });
  await writeDump(snapshot, opts.out);
  const counts = `${snapshot.nodes.length} nodes, ${snapshot.pods.length} pods, ${snapshot.capi.machines.length} machines, ${snapshot.events.length} events`;
  io.stderr.write(
    `wrote ${cluster.name} to ${opts.out} (${counts}${snapshot.partial.length ? `; ${snapshot.partial.length} parts not read, see meta.json` : ''})\n`,
  );
  return 0;
}
