import type { ClusterConfig, FleetConfig } from '../../config/config-schema.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../log/logger.js';
import { loadKubeConfig } from '../live/load-kube-config.js';
import type { KubeObject } from '../snapshot.js';
import { ENROLLED_SECRET_LABEL, type DiscoveredCluster } from './discovered-cluster.js';
import { nameDiscoveredClusters, type FleetView } from './name-discovered-clusters.js';
import { toClusterConfig } from './to-cluster-config.js';
import { startObjectWatch, type ObjectWatch } from './watch-objects.js';

/** The Cluster API group and the versions read, preferred first (v1beta2, then v1beta1). */
const CAPI_GROUP = 'cluster.x-k8s.io';
const CAPI_VERSIONS = ['v1beta2', 'v1beta1'];

export interface FleetDiscoveryOptions {
  /** Names of configured clusters: a discovered cluster of the same name is called `namespace/name`. */
  configuredNames: ReadonlySet<string>;
  /** Called after every change of what is discovered (not before every fleet has been listed once or failed). */
  onChange?: (state: FleetDiscoveryState) => void;
  log?: Logger;
  watchSeconds?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
}

/** What discovery sees now. */
export interface FleetDiscoveryState {
  clusters: DiscoveredCluster[];
  /** Their ClusterConfigs, enrolled ones with their kubeconfig (in memory only). */
  configs: ClusterConfig[];
  /** Fleets whose Cluster objects were listed at least once: only their clusters can be said to be gone. */
  settled: string[];
  /** Why a fleet's management cluster could not be read, one line each. */
  errors: string[];
}

export interface FleetDiscovery {
  /** Resolves when every fleet was listed once (or failed). */
  readonly ready: Promise<void>;
  state(): FleetDiscoveryState;
  stop(): void;
}

/**
 * Discovery (docs/fleet.md): for each fleet, list and watch the `Cluster` objects of its management
 * cluster (its namespaces, or all; its label selector) and the kubeconfig Secrets next to them —
 * `k8s-health.io/kubeconfig=true` ones, or Cluster API's `<cluster>-kubeconfig` with
 * `credentials: capi-admin-secret` — and turn them into named clusters and ClusterConfigs.
 */
export function startFleetDiscovery(fleets: readonly FleetConfig[], opts: FleetDiscoveryOptions): FleetDiscovery {
  const watches: ObjectWatch[] = [];
  const perFleet = new Map<
    string,
    {
      clusters: Map<string, KubeObject[]>;
      secrets: Map<string, KubeObject[]>;
      listed: Set<string>;
      watches: ObjectWatch[];
      error?: string;
    }
  >();
  let started = false;
  let last = '';
  let current: FleetDiscoveryState = { clusters: [], configs: [], settled: [], errors: [] };

  const compute = (): FleetDiscoveryState => {
    const views: FleetView[] = fleets.map((fleet) => {
      const f = perFleet.get(fleet.name)!;
      return { fleet, clusters: [...f.clusters.values()].flat(), secrets: [...f.secrets.values()].flat() };
    });
    const kubeconfigs = new Map<string, string>();
    const clusters = nameDiscoveredClusters(views, opts.configuredNames, kubeconfigs);
    const byFleet = new Map(fleets.map((f) => [f.name, f]));
    return {
      clusters,
      configs: clusters.map((d) => toClusterConfig(byFleet.get(d.fleet)!, d, kubeconfigs.get(d.name))),
      // Settled: every Cluster watch of the fleet listed once (a fleet whose kubeconfig did not even load has none:
      // never settled).
      settled: fleets
        .filter(
          (f) =>
            perFleet.get(f.name)!.clusters.size > 0 &&
            perFleet.get(f.name)!.listed.size === perFleet.get(f.name)!.clusters.size,
        )
        .map((f) => f.name),
      errors: fleets.flatMap((f) =>
        perFleet.get(f.name)!.error ? [`fleet ${f.name}: ${perFleet.get(f.name)!.error}`] : [],
      ),
    };
  };
  const update = () => {
    if (!started) return;
    const next = compute();
    // Compare with the kubeconfigs' content included: a re-enrolled cluster gets its new credentials.
    const sig = JSON.stringify(next);
    if (sig === last) return;
    last = sig;
    current = next;
    opts.onChange?.(next);
  };

  for (const fleet of fleets) {
    const f = {
      clusters: new Map<string, KubeObject[]>(),
      secrets: new Map<string, KubeObject[]>(),
      listed: new Set<string>(),
      watches: [] as ObjectWatch[],
      error: undefined as string | undefined,
    };
    perFleet.set(fleet.name, f);
    let kc;
    try {
      kc = loadKubeConfig(fleet.management);
    } catch (err) {
      f.error = describeError(err);
      opts.log?.error({ fleet: fleet.name, error: f.error }, 'fleet: cannot load the management kubeconfig');
      continue;
    }
    const namespaces = fleet.namespaces.length ? fleet.namespaces : [undefined];
    const secretSelector =
      fleet.credentials === 'capi-admin-secret' ? 'cluster.x-k8s.io/cluster-name' : `${ENROLLED_SECRET_LABEL}=true`;
    for (const ns of namespaces) {
      const where = ns ? `/namespaces/${encodeURIComponent(ns)}` : '';
      const tag = ns ?? '*';
      f.clusters.set(tag, []);
      const common = {
        log: opts.log,
        watchSeconds: opts.watchSeconds,
        minBackoffMs: opts.minBackoffMs,
        maxBackoffMs: opts.maxBackoffMs,
        timeoutMs: opts.timeoutMs,
      };
      f.watches.push(
        startObjectWatch(kc, {
          ...common,
          paths: CAPI_VERSIONS.map((v) => `/apis/${CAPI_GROUP}/${v}${where}/clusters`),
          labelSelector: fleet.selector,
          what: `clusters.${CAPI_GROUP}${ns ? ` in namespace ${ns}` : ''} (fleet ${fleet.name})`,
          onChange: (objs) => {
            f.clusters.set(tag, objs);
            f.listed.add(tag);
            f.error = undefined;
            update();
          },
        }),
      );
      f.watches.push(
        startObjectWatch(kc, {
          ...common,
          paths: [`/api/v1${where}/secrets`],
          labelSelector: secretSelector,
          what: `kubeconfig secrets${ns ? ` in namespace ${ns}` : ''} (fleet ${fleet.name})`,
          // With capi-admin-secret only the `<cluster>-kubeconfig` Secrets are kept (not CAPI's CAs and keys).
          onChange: (objs) => {
            f.secrets.set(
              tag,
              fleet.credentials === 'capi-admin-secret'
                ? objs.filter((s) => s.metadata.name.endsWith('-kubeconfig'))
                : objs,
            );
            update();
          },
        }),
      );
    }
    watches.push(...f.watches);
  }
  const ready = Promise.all(watches.map((w) => w.ready)).then(() => {
    for (const [name, f] of perFleet) {
      if (f.listed.size < f.clusters.size && !f.error)
        f.error = f.watches.map((w) => w.error).find(Boolean) ?? 'Cluster objects not listed yet';
      if (f.error) opts.log?.warn({ fleet: name, error: f.error }, 'fleet: management cluster not read');
    }
    started = true;
    last = '';
    update();
  });
  return {
    ready,
    state: () => (started ? current : compute()),
    stop() {
      for (const w of watches) w.stop();
    },
  };
}

/** Discover once (the CLI without a Redis directory): list every fleet, then stop watching. */
export async function discoverFleetsOnce(
  fleets: readonly FleetConfig[],
  opts: Omit<FleetDiscoveryOptions, 'onChange'>,
): Promise<FleetDiscoveryState> {
  const d = startFleetDiscovery(fleets, { ...opts, maxBackoffMs: opts.maxBackoffMs ?? 1000 });
  try {
    await d.ready;
    return d.state();
  } finally {
    d.stop();
  }
}
