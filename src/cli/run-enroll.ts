import type { KubeConfig } from '@kubernetes/client-node';
import { discoverFleetsOnce } from '../cluster/fleet/start-fleet-discovery.js';
import { capiSecretName, KUBECONFIG_KEY } from '../cluster/fleet/discovered-cluster.js';
import { loadKubeConfig } from '../cluster/live/load-kube-config.js';
import { requestKube } from '../cluster/live/request-kube.js';
import { describeError } from '../errors/describe-error.js';
import { enrollCluster } from '../approvals/execute/enroll-cluster.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import type { CliIo } from './cli-io.js';
import { resolveConfig } from './resolve-config.js';
import { UsageError } from './usage-error.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';

export interface EnrollOptions {
  config?: string;
  kubeconfig?: string;
  context?: string;
  useCapiSecret?: boolean;
  /** Recreate an existing reader object that is not what enroll would create (instead of failing). */
  replace?: boolean;
}

/**
 * `k8s-health enroll <cluster> [--config FILE] [--kubeconfig F --context C | --use-capi-secret]`
 * (docs/fleet.md): the cluster must be one the config's fleets discover. The admin credential is the
 * operator's (--kubeconfig/--context) or, with --use-capi-secret, Cluster API's `<cluster>-kubeconfig`
 * Secret read through the fleet's management credential; it is used for this command only. The
 * read-only kubeconfig is stored through the fleet's management credential, which must be allowed to
 * create that one Secret. Exit 0 when enrolled; 1 when the cluster refused a step; 2 on bad usage.
 */
export async function runEnroll(cluster: string, opts: EnrollOptions, io: CliIo): Promise<number> {
  if (opts.useCapiSecret && (opts.kubeconfig || opts.context))
    throw new UsageError(
      'enroll: --use-capi-secret and --kubeconfig/--context are exclusive: name one admin credential',
    );
  if (!opts.useCapiSecret && !opts.kubeconfig && !opts.context)
    throw new UsageError(
      "enroll: name the workload cluster's admin credential: --kubeconfig FILE [--context NAME], or --use-capi-secret",
    );
  const { config, file } = await resolveConfig(opts.config, io.env, true);
  if (!config.fleets.length)
    throw new UsageError(`enroll: no fleets in ${file}: enrollment is for clusters a fleet discovers (docs/fleet.md)`);
  if (config.clusters.some((c) => c.name === cluster))
    throw new UsageError(
      `enroll: "${cluster}" is a configured cluster: it is read through its own workload kubeconfig, nothing to enroll`,
    );
  const found = await discoverFleetsOnce(config.fleets, {
    configuredNames: new Set(config.clusters.map((c) => c.name)),
    timeoutMs: 15_000,
  });
  const d = found.clusters.find((c) => c.name === cluster);
  if (!d) {
    const unread = found.errors.length ? ` (not read: ${found.errors.join('; ')})` : '';
    throw new UsageError(
      `enroll: no discovered cluster "${cluster}"; discovered: ${found.clusters.map((c) => c.name).join(', ') || '(none)'}${unread}`,
    );
  }
  const fleet = config.fleets.find((f) => f.name === d.fleet)!;
  const management = loadKubeConfig(fleet.management);
  let admin: KubeConfig;
  try {
    admin = opts.useCapiSecret
      ? await loadCapiSecret(management, d.namespace, d.clusterName)
      : loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  } catch (err) {
    io.stderr.write(`k8s-health enroll: ${neutralizePlainText(describeError(err))}\n`);
    return 1;
  }
  try {
    const r = await enrollCluster(
      { name: d.name, namespace: d.namespace, clusterName: d.clusterName },
      admin,
      management,
      { replace: opts.replace === true },
    );
    for (const s of r.steps) io.stdout.write(`${neutralizePlainText(s)}\n`);
    io.stdout.write(
      `enrolled ${neutralizePlainText(d.name)}: the bot reads it through Secret ${neutralizePlainText(r.secret)} (read-only)\n`,
    );
    return 0;
  } catch (err) {
    io.stderr.write(`k8s-health enroll: ${neutralizePlainText(describeError(err))}\n`);
    return 1;
  }
}

/** Cluster API's admin kubeconfig of a cluster, read once from its Secret in the management cluster. */
async function loadCapiSecret(management: KubeConfig, namespace: string, clusterName: string): Promise<KubeConfig> {
  const name = capiSecretName(clusterName);
  const r = await requestKube(
    management,
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`,
  );
  if (r.status !== 200)
    throw new K8sHealthError(
      'E_ENROLL_SECRET',
      `cannot read Secret ${namespace}/${name} in the management cluster: HTTP ${r.status}`,
    );
  const value = (JSON.parse(r.body) as { data?: Record<string, string> }).data?.[KUBECONFIG_KEY];
  if (!value)
    throw new K8sHealthError(
      'E_ENROLL_SECRET',
      `Secret ${namespace}/${name} holds no kubeconfig under "${KUBECONFIG_KEY}"`,
    );
  return loadKubeConfig({ kubeconfigData: Buffer.from(value, 'base64').toString('utf8') });
}
