import { parseMatchers } from '../../config/parse-alert-matchers.js';
import type { KubeObject } from '../snapshot.js';
import type { FleetConfig } from '../../config/config-schema.js';
import {
  ANNOTATIONS,
  capiSecretName,
  enrolledSecretName,
  KUBECONFIG_KEY,
  type DiscoveredCluster,
} from './discovered-cluster.js';

/** What one fleet's discovery currently sees. */
export interface FleetView {
  fleet: FleetConfig;
  clusters: KubeObject[];
  /** Kubeconfig Secrets of the fleet (enrolled ones, or CAPI's with `credentials: capi-admin-secret`). */
  secrets: KubeObject[];
}

const SLACK_ID = /^[A-Z0-9]+$/;

/**
 * The discovered clusters of every fleet, named: a Cluster's own name when it is unique among all
 * fleets and configured clusters, else `namespace/name` (and `fleet/namespace/name` if even that
 * collides). Pure; `kubeconfigs` receives each enrolled cluster's kubeconfig (kept in memory only).
 */
export function nameDiscoveredClusters(
  views: readonly FleetView[],
  configuredNames: ReadonlySet<string>,
  kubeconfigs?: Map<string, string>,
): DiscoveredCluster[] {
  const entries = views.flatMap((v) =>
    v.clusters.filter((c) => c.metadata?.name && c.metadata.namespace).map((c) => ({ view: v, obj: c })),
  );
  const count = (f: (e: (typeof entries)[number]) => string) => {
    const m = new Map<string, number>();
    for (const e of entries) m.set(f(e), (m.get(f(e)) ?? 0) + 1);
    return m;
  };
  const byName = count((e) => e.obj.metadata.name);
  const byNsName = count((e) => `${e.obj.metadata.namespace}/${e.obj.metadata.name}`);
  const out: DiscoveredCluster[] = [];
  for (const { view, obj } of entries) {
    const clusterName = obj.metadata.name;
    const namespace = obj.metadata.namespace!;
    const nsName = `${namespace}/${clusterName}`;
    const name =
      byName.get(clusterName) === 1 && !configuredNames.has(clusterName)
        ? clusterName
        : byNsName.get(nsName) === 1 && !configuredNames.has(nsName)
          ? nsName
          : `${view.fleet.name}/${nsName}`;
    const secretName =
      view.fleet.credentials === 'capi-admin-secret' ? capiSecretName(clusterName) : enrolledSecretName(clusterName);
    const secret = view.secrets.find((s) => s.metadata.namespace === namespace && s.metadata.name === secretName) as
      (KubeObject & { data?: Record<string, string> }) | undefined;
    const encoded = secret?.data?.[KUBECONFIG_KEY];
    const d: DiscoveredCluster = {
      name,
      fleet: view.fleet.name,
      namespace,
      clusterName,
      enrolled: Boolean(encoded),
      credentials: view.fleet.credentials,
    };
    if (encoded) kubeconfigs?.set(name, Buffer.from(encoded, 'base64').toString('utf8'));
    const warnings: string[] = [];
    const annotations = obj.metadata.annotations ?? {};
    const alert = annotations[ANNOTATIONS.alertChannel]?.trim();
    if (alert !== undefined) {
      if (SLACK_ID.test(alert)) d.alertChannel = alert;
      else warnings.push(`${ANNOTATIONS.alertChannel}: must be a Slack channel id such as C0ALERTS; ignored`);
    }
    const channels = annotations[ANNOTATIONS.channels];
    if (channels !== undefined) {
      const list = channels
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (list.length && list.every((c) => SLACK_ID.test(c))) d.channels = list;
      else warnings.push(`${ANNOTATIONS.channels}: must be comma-separated Slack channel ids; ignored`);
    }
    const matchers = annotations[ANNOTATIONS.alertMatchers]?.trim();
    if (matchers) {
      try {
        parseMatchers(matchers, ANNOTATIONS.alertMatchers);
        d.alertMatchers = matchers;
      } catch (err) {
        warnings.push(`${err instanceof Error ? err.message : String(err)}; ignored`);
      }
    }
    if (warnings.length) d.warnings = warnings;
    out.push(d);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
