import type { KubeObject } from '../../src/cluster/snapshot.js';

/** How big a synthetic cluster to build (default 5,000 nodes, 100,000 pods, ...). */
export interface SyntheticClusterOptions {
  nodes: number;
  pods: number;
  machines: number;
  events: number;
  namespaces: number;
  volumeAttachments: number;
  /** Reference time for timestamps (default 2025-03-01T10:00:00Z). */
  now?: Date;
  /** PRNG seed: the same options always give the same cluster. */
  seed?: number;
}

/** The fleet-scale cluster the performance targets are measured on (docs/performance.md). */
export const DEFAULT_SCALE: SyntheticClusterOptions = {
  nodes: 5000,
  pods: 100_000,
  machines: 5000,
  events: 20_000,
  namespaces: 200,
  volumeAttachments: 2000,
};
/** A quick run (`npm run bench -- --scale small`): same shape, a tenth of the size. */
export const SMALL_SCALE: SyntheticClusterOptions = {
  nodes: 500,
  pods: 10_000,
  machines: 500,
  events: 2000,
  namespaces: 40,
  volumeAttachments: 200,
};

/** One of the 200 small clusters of the scale-out target (6). */
export const FLEET_SCALE: SyntheticClusterOptions = {
  nodes: 20,
  pods: 300,
  machines: 20,
  events: 100,
  namespaces: 4,
  volumeAttachments: 10,
};

/**
 * A large, realistic, self-managed Cluster API cluster as plain objects, shaped like
 * `kubectl get -o json` output: pods with managedFields, full status, conditions and
 * containerStatuses (~5 KB each, as on real clusters), nodes with images and conditions (~10 KB),
 * CAPI Machines/MachineSets/MachineDeployments/KCP, events, webhooks and volume attachments.
 * A small share is unhealthy (NotReady nodes, CrashLoopBackOff pods, warning events) so the
 * analyzers have work to do. Deterministic for a given seed.
 */
export function createSyntheticCluster(opts: SyntheticClusterOptions = DEFAULT_SCALE): KubeObject[] {
  const rand = mulberry32(opts.seed ?? 8);
  const now = (opts.now ?? new Date('2025-03-01T10:00:00Z')).getTime();
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const uid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
  let rv = 100_000;
  const meta = (name: string, namespace: string | undefined, extra: Record<string, unknown> = {}) => ({
    name,
    ...(namespace ? { namespace } : {}),
    uid: uid(),
    resourceVersion: String(++rv),
    creationTimestamp: ago(60 * 24 * 30 + Math.floor(rand() * 1000)),
    ...extra,
  });
  const out: KubeObject[] = [];
  const clusterName = 'fleet-synthetic';
  const capiNs = 'fleet-system';

  // --- namespaces ---
  const namespaces = [
    'kube-system',
    capiNs,
    ...Array.from({ length: Math.max(0, opts.namespaces - 2) }, (_, i) => `team-${i}`),
  ];
  for (const ns of namespaces) {
    out.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta(ns, undefined, { labels: { 'kubernetes.io/metadata.name': ns } }),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }

  // --- CAPI: one Cluster, a KubeadmControlPlane of 3, the rest in MachineDeployments of 100 ---
  out.push({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Cluster',
    metadata: meta(clusterName, capiNs, { labels: { 'cluster.x-k8s.io/cluster-name': clusterName } }),
    spec: {
      controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 },
      controlPlaneRef: {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
        kind: 'KubeadmControlPlane',
        name: `${clusterName}-cp`,
        namespace: capiNs,
      },
    },
    status: {
      phase: 'Provisioned',
      controlPlaneReady: true,
      infrastructureReady: true,
      conditions: [cond('Ready', 'True', ago(600)), cond('ControlPlaneReady', 'True', ago(600))],
    },
  });
  out.push({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
    kind: 'KubeadmControlPlane',
    metadata: meta(`${clusterName}-cp`, capiNs, { labels: { 'cluster.x-k8s.io/cluster-name': clusterName } }),
    spec: {
      replicas: 3,
      version: 'v1.30.4',
      rolloutStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      machineTemplate: { infrastructureRef: { kind: 'VSphereMachineTemplate', name: `${clusterName}-cp` } },
    },
    status: {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      unavailableReplicas: 0,
      ready: true,
      initialized: true,
      version: 'v1.30.4',
      conditions: [cond('Ready', 'True', ago(600)), cond('Available', 'True', ago(600))],
    },
  });
  const mdCount = Math.max(1, Math.ceil((opts.machines - 3) / 100));
  for (let d = 0; d < mdCount; d++) {
    const replicas = Math.min(100, opts.machines - 3 - d * 100);
    const labels = { 'cluster.x-k8s.io/cluster-name': clusterName, 'cluster.x-k8s.io/deployment-name': `md-${d}` };
    const tmpl = {
      clusterName,
      version: 'v1.30.4',
      bootstrap: { configRef: { kind: 'KubeadmConfigTemplate', name: `md-${d}` } },
      infrastructureRef: { kind: 'VSphereMachineTemplate', name: `md-${d}` },
    };
    out.push({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: meta(`md-${d}`, capiNs, { labels }),
      spec: {
        clusterName,
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: tmpl },
      },
      status: {
        phase: 'Running',
        replicas,
        readyReplicas: replicas,
        updatedReplicas: replicas,
        availableReplicas: replicas,
        observedGeneration: 1,
        conditions: [cond('Ready', 'True', ago(600)), cond('Available', 'True', ago(600))],
      },
    });
    out.push({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineSet',
      metadata: meta(`md-${d}-7f9c`, capiNs, {
        labels,
        ownerReferences: [
          {
            apiVersion: 'cluster.x-k8s.io/v1beta1',
            kind: 'MachineDeployment',
            name: `md-${d}`,
            uid: uid(),
            controller: true,
          },
        ],
      }),
      spec: {
        clusterName,
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: tmpl },
      },
      status: {
        replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        fullyLabeledReplicas: replicas,
        observedGeneration: 1,
      },
    });
  }
  out.push({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineHealthCheck',
    metadata: meta(`${clusterName}-workers`, capiNs),
    spec: {
      clusterName,
      selector: { matchLabels: { 'cluster.x-k8s.io/cluster-name': clusterName } },
      unhealthyConditions: [
        { type: 'Ready', status: 'Unknown', timeout: '300s' },
        { type: 'Ready', status: 'False', timeout: '300s' },
      ],
    },
    status: { expectedMachines: opts.machines - 3, currentHealthy: opts.machines - 3, remediationsAllowed: 10 },
  });

  // --- nodes and their machines (node i <-> machine i where both exist) ---
  const nodeNames: string[] = [];
  const images = Array.from({ length: 40 }, (_, i) => ({
    names: [
      `registry.example.com/platform/image-${i}@sha256:${hex(64)}`,
      `registry.example.com/platform/image-${i}:v1.${i}.0`,
    ],
    sizeBytes: 10_000_000 + i * 1_000_000,
  }));
  for (let i = 0; i < opts.nodes; i++) {
    const cp = i < 3;
    const name = cp ? `${clusterName}-cp-${i}` : `${clusterName}-md-${Math.floor((i - 3) / 100)}-${hex(5)}`;
    nodeNames.push(name);
    const notReady = !cp && i % 1000 === 7; // a few NotReady workers
    const ip = `10.${Math.floor(i / 65536) + 1}.${Math.floor(i / 256) % 256}.${i % 256}`;
    const labels: Record<string, string> = {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node.kubernetes.io/instance-type': 'best-effort-large',
      'topology.kubernetes.io/zone': `zone-${i % 3}`,
    };
    if (cp) labels['node-role.kubernetes.io/control-plane'] = '';
    out.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta(name, undefined, {
        labels,
        annotations: {
          'cluster.x-k8s.io/cluster-name': clusterName,
          'cluster.x-k8s.io/cluster-namespace': capiNs,
          'cluster.x-k8s.io/machine': name,
          'cluster.x-k8s.io/owner-kind': cp ? 'KubeadmControlPlane' : 'MachineSet',
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
        managedFields: managedFields(['kubelet', 'kube-controller-manager', 'manager'], ago(5)),
      }),
      spec: {
        podCIDR: `100.96.${i % 256}.0/24`,
        podCIDRs: [`100.96.${i % 256}.0/24`],
        providerID: `vsphere://${uid()}`,
        ...(cp ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}),
      },
      status: {
        capacity: { cpu: '8', 'ephemeral-storage': '102626232Ki', memory: '32874096Ki', pods: '110' },
        allocatable: { cpu: '8', 'ephemeral-storage': '94580335255', memory: '32771696Ki', pods: '110' },
        conditions: [
          cond(
            'MemoryPressure',
            'False',
            ago(9000),
            'KubeletHasSufficientMemory',
            'kubelet has sufficient memory available',
            ago(1),
          ),
          cond('DiskPressure', 'False', ago(9000), 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', ago(1)),
          cond(
            'PIDPressure',
            'False',
            ago(9000),
            'KubeletHasSufficientPID',
            'kubelet has sufficient PID available',
            ago(1),
          ),
          notReady
            ? cond('Ready', 'Unknown', ago(45), 'NodeStatusUnknown', 'Kubelet stopped posting node status.', ago(46))
            : cond('Ready', 'True', ago(9000), 'KubeletReady', 'kubelet is posting ready status', ago(1)),
        ],
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: hex(32),
          systemUUID: uid(),
          bootID: uid(),
          kernelVersion: '5.15.0-119-generic',
          osImage: 'Ubuntu 22.04.4 LTS',
          containerRuntimeVersion: 'containerd://1.7.20',
          kubeletVersion: 'v1.30.4',
          kubeProxyVersion: 'v1.30.4',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
        images,
      },
    });
  }
  for (let i = 0; i < opts.machines; i++) {
    const cp = i < 3;
    const nodeName = nodeNames[i];
    const d = Math.floor((i - 3) / 100);
    const labels: Record<string, string> = {
      'cluster.x-k8s.io/cluster-name': clusterName,
      ...(cp
        ? { 'cluster.x-k8s.io/control-plane': '' }
        : { 'cluster.x-k8s.io/deployment-name': `md-${d}`, 'cluster.x-k8s.io/set-name': `md-${d}-7f9c` }),
    };
    const name = nodeName ?? `${clusterName}-md-${d}-m${i}`;
    out.push({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: meta(name, capiNs, {
        labels,
        ownerReferences: [
          cp
            ? {
                apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
                kind: 'KubeadmControlPlane',
                name: `${clusterName}-cp`,
                uid: uid(),
                controller: true,
              }
            : {
                apiVersion: 'cluster.x-k8s.io/v1beta1',
                kind: 'MachineSet',
                name: `md-${d}-7f9c`,
                uid: uid(),
                controller: true,
              },
        ],
        finalizers: ['machine.cluster.x-k8s.io'],
        managedFields: managedFields(['manager'], ago(30)),
      }),
      spec: {
        clusterName,
        version: 'v1.30.4',
        bootstrap: {
          configRef: {
            apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
            kind: 'KubeadmConfig',
            name,
            namespace: capiNs,
          },
          dataSecretName: name,
        },
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'VSphereMachine',
          name,
          namespace: capiNs,
        },
        providerID: `vsphere://${uid()}`,
      },
      status: {
        phase: nodeName ? 'Running' : 'Provisioned',
        bootstrapReady: true,
        infrastructureReady: true,
        lastUpdated: ago(60),
        observedGeneration: 2,
        ...(nodeName
          ? {
              nodeRef: { apiVersion: 'v1', kind: 'Node', name: nodeName, uid: uid() },
              nodeInfo: { kubeletVersion: 'v1.30.4', osImage: 'Ubuntu 22.04.4 LTS' },
            }
          : {}),
        addresses: [{ type: 'ExternalIP', address: `10.0.${Math.floor(i / 256) % 256}.${i % 256}` }],
        conditions: [
          cond('Ready', 'True', ago(600)),
          cond('BootstrapReady', 'True', ago(600)),
          cond('InfrastructureReady', 'True', ago(600)),
          cond('NodeHealthy', 'True', ago(600)),
        ],
      },
    });
  }

  // --- pods: per namespace a few Deployments (with ReplicaSet and Service), pods spread over nodes ---
  const workloads: { ns: string; app: string; rs: string; rsUid: string }[] = [];
  const appsPerNs = 10;
  for (const ns of namespaces.slice(2)) {
    for (let a = 0; a < appsPerNs; a++) {
      const app = `app-${a}`;
      const rs = `${app}-${hex(10)}`;
      const rsUid = uid();
      const labels = { app, 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': ns };
      out.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta(app, ns, { labels, generation: 3 }),
        spec: {
          replicas: 50,
          selector: { matchLabels: { app } },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: app, image: `registry.example.com/${ns}/${app}:1.4.2` }] },
          },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        },
        status: {
          observedGeneration: 3,
          replicas: 50,
          readyReplicas: 50,
          updatedReplicas: 50,
          availableReplicas: 50,
          conditions: [
            cond('Available', 'True', ago(900), 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
          ],
        },
      });
      out.push({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          ...meta(rs, ns, {
            labels: { ...labels, 'pod-template-hash': rs.slice(-10) },
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                name: app,
                uid: uid(),
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          }),
          uid: rsUid,
        },
        spec: { replicas: 50, selector: { matchLabels: { app } } },
        status: {
          replicas: 50,
          readyReplicas: 50,
          availableReplicas: 50,
          fullyLabeledReplicas: 50,
          observedGeneration: 1,
        },
      });
      out.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta(app, ns, { labels }),
        spec: {
          type: 'ClusterIP',
          clusterIP: `100.64.${a}.${workloads.length % 256}`,
          ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }],
          selector: { app },
        },
      });
      workloads.push({ ns, app, rs, rsUid });
    }
  }
  const workerNodes = nodeNames.length > 3 ? nodeNames.slice(3) : nodeNames;
  for (let i = 0; i < opts.pods; i++) {
    const w = workloads[i % workloads.length]!;
    const name = `${w.rs}-${i.toString(36).padStart(5, '0')}`; // unique: random suffixes collide at 100,000
    const node = workerNodes[i % workerNodes.length]!;
    const crash = i % 2000 === 13; // a few CrashLoopBackOff pods
    const started = ago(60 * 24 * 3 + (i % 500));
    const podUid = uid();
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta(name, w.ns, {
        uid: podUid,
        generateName: `${w.rs}-`,
        labels: {
          app: w.app,
          'app.kubernetes.io/name': w.app,
          'pod-template-hash': w.rs.slice(-10),
          'security.istio.io/tlsMode': 'istio',
        },
        annotations: {
          'kubectl.kubernetes.io/default-container': w.app,
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': '9090',
          'cni.projectcalico.org/podIP': `100.96.${i % 256}.${(i >> 8) % 256}/32`,
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: w.rs,
            uid: w.rsUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        managedFields: managedFields(['kube-controller-manager', 'kubelet'], started),
      }),
      spec: {
        volumes: [
          {
            name: 'kube-api-access',
            projected: {
              sources: [
                { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                {
                  downwardAPI: {
                    items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
                  },
                },
              ],
              defaultMode: 420,
            },
          },
          { name: 'config', configMap: { name: `${w.app}-config`, defaultMode: 420 } },
          ...(i % 50 === 0 ? [{ name: 'data', persistentVolumeClaim: { claimName: `${w.app}-data-${i}` } }] : []),
        ],
        containers: [
          {
            name: w.app,
            image: `registry.example.com/${w.ns}/${w.app}:1.4.2`,
            imagePullPolicy: 'IfNotPresent',
            args: ['--port=8080', '--metrics-port=9090', '--log-level=info'],
            ports: [
              { name: 'http', containerPort: 8080, protocol: 'TCP' },
              { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
            ],
            env: [
              { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
              { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
              { name: 'GOMAXPROCS', value: '2' },
            ],
            resources: { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
            livenessProbe: {
              httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
              initialDelaySeconds: 10,
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: {
              httpGet: { path: '/readyz', port: 8080, scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 5,
              successThreshold: 1,
              failureThreshold: 3,
            },
            volumeMounts: [
              { name: 'config', mountPath: '/etc/app' },
              { name: 'kube-api-access', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
            ],
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true },
          },
          {
            name: 'istio-proxy',
            image: 'registry.example.com/istio/proxyv2:1.22.3',
            args: ['proxy', 'sidecar', '--domain', `${w.ns}.svc.cluster.local`],
            resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '10m', memory: '40Mi' } },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        nodeName: node,
        securityContext: { fsGroup: 2000 },
        schedulerName: 'default-scheduler',
        priority: 0,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
      status: {
        phase: 'Running',
        conditions: [
          cond('PodReadyToStartContainers', 'True', started),
          cond('Initialized', 'True', started),
          cond(
            'Ready',
            crash ? 'False' : 'True',
            started,
            crash ? 'ContainersNotReady' : undefined,
            crash ? `containers with unready status: [${w.app}]` : undefined,
          ),
          cond('ContainersReady', crash ? 'False' : 'True', started),
          cond('PodScheduled', 'True', started),
        ],
        hostIP: `10.1.${(i >> 8) % 256}.${i % 256}`,
        hostIPs: [{ ip: `10.1.${(i >> 8) % 256}.${i % 256}` }],
        podIP: `100.96.${i % 256}.${(i >> 8) % 256}`,
        podIPs: [{ ip: `100.96.${i % 256}.${(i >> 8) % 256}` }],
        startTime: started,
        qosClass: 'Burstable',
        containerStatuses: [
          crash
            ? {
                name: w.app,
                state: {
                  waiting: {
                    reason: 'CrashLoopBackOff',
                    message: `back-off 5m0s restarting failed container=${w.app} pod=${name}`,
                  },
                },
                lastState: {
                  terminated: {
                    exitCode: 1,
                    reason: 'Error',
                    startedAt: ago(8),
                    finishedAt: ago(7),
                    containerID: `containerd://${hex(64)}`,
                  },
                },
                ready: false,
                restartCount: 42,
                image: `registry.example.com/${w.ns}/${w.app}:1.4.2`,
                imageID: `registry.example.com/${w.ns}/${w.app}@sha256:${hex(64)}`,
                containerID: `containerd://${hex(64)}`,
                started: false,
              }
            : {
                name: w.app,
                state: { running: { startedAt: started } },
                lastState: {},
                ready: true,
                restartCount: 0,
                image: `registry.example.com/${w.ns}/${w.app}:1.4.2`,
                imageID: `registry.example.com/${w.ns}/${w.app}@sha256:${hex(64)}`,
                containerID: `containerd://${hex(64)}`,
                started: true,
              },
          {
            name: 'istio-proxy',
            state: { running: { startedAt: started } },
            lastState: {},
            ready: true,
            restartCount: 0,
            image: 'registry.example.com/istio/proxyv2:1.22.3',
            imageID: `registry.example.com/istio/proxyv2@sha256:${hex(64)}`,
            containerID: `containerd://${hex(64)}`,
            started: true,
          },
        ],
      },
    });
  }

  // --- events: mostly Normal, some warnings about the unhealthy objects ---
  for (let i = 0; i < opts.events; i++) {
    const w = workloads[i % workloads.length]!;
    const warn = i % 10 === 0;
    const podName = `${w.rs}-${hex(5)}`;
    out.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta(`${podName}.${hex(16)}`, w.ns, { managedFields: managedFields(['kubelet'], ago(3)) }),
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: w.ns,
        name: podName,
        uid: uid(),
        resourceVersion: String(rv),
        fieldPath: `spec.containers{${w.app}}`,
      },
      reason: warn ? 'BackOff' : 'Pulled',
      message: warn
        ? `Back-off restarting failed container ${w.app} in pod ${podName}`
        : `Container image "registry.example.com/${w.ns}/${w.app}:1.4.2" already present on machine`,
      source: { component: 'kubelet', host: workerNodes[i % workerNodes.length] },
      firstTimestamp: ago(60 + (i % 50)),
      lastTimestamp: ago(i % 50),
      count: warn ? 12 : 1,
      type: warn ? 'Warning' : 'Normal',
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: workerNodes[i % workerNodes.length],
    });
  }

  // --- webhooks (system ones exclude kube-system; one third-party that does not) ---
  for (const [kind, name, ns, svc] of [
    ['ValidatingWebhookConfiguration', 'cert-manager-webhook', 'cert-manager', 'cert-manager-webhook'],
    [
      'ValidatingWebhookConfiguration',
      'gatekeeper-validating-webhook-configuration',
      'gatekeeper-system',
      'gatekeeper-webhook-service',
    ],
    ['MutatingWebhookConfiguration', 'istio-sidecar-injector', 'istio-system', 'istiod'],
    ['MutatingWebhookConfiguration', 'capi-mutating-webhook-configuration', 'capi-system', 'capi-webhook-service'],
  ] as const) {
    const system = name.startsWith('capi') || name.startsWith('cert-manager');
    out.push({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: meta(name, undefined),
      webhooks: [
        {
          name: `validate.${name}.example.com`,
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: system ? 'Fail' : 'Ignore',
          timeoutSeconds: 10,
          matchPolicy: 'Equivalent',
          clientConfig: {
            service: { namespace: ns, name: svc, path: '/validate', port: 443 },
            caBundle: Buffer.from(hex(600)).toString('base64'),
          },
          rules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'], scope: '*' },
          ],
          namespaceSelector: system
            ? { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] }
            : {},
          objectSelector: {},
        },
      ],
    });
  }

  // --- volume attachments ---
  for (let i = 0; i < opts.volumeAttachments; i++) {
    const node = workerNodes[i % workerNodes.length]!;
    out.push({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: meta(`csi-${hex(64)}`, undefined, { finalizers: ['external-attacher/csi-vsphere-vmware-com'] }),
      spec: { attacher: 'csi.vsphere.vmware.com', nodeName: node, source: { persistentVolumeName: `pvc-${uid()}` } },
      status: { attached: true, attachmentMetadata: { diskUUID: hex(32), type: 'vSphere CNS Block Volume' } },
    });
  }
  return out;
}

function cond(
  type: string,
  status: string,
  lastTransitionTime: string,
  reason?: string,
  message?: string,
  lastHeartbeatTime?: string,
) {
  return {
    type,
    status,
    ...(lastHeartbeatTime ? { lastHeartbeatTime } : {}),
    lastTransitionTime,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/** managedFields as the API server keeps them: one entry per field manager, with a fieldsV1 tree. */
function managedFields(managers: string[], time: string) {
  return managers.map((manager) => ({
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: {
      'f:metadata': {
        'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
        'f:ownerReferences': { '.': {}, 'k:{"uid":"x"}': {} },
      },
      'f:status': {
        'f:conditions': {
          'k:{"type":"Ready"}': {
            '.': {},
            'f:lastProbeTime': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
        },
        'f:containerStatuses': {},
        'f:hostIP': {},
        'f:phase': {},
        'f:podIP': {},
        'f:startTime': {},
      },
    },
    ...(manager === 'kubelet' ? { subresource: 'status' } : {}),
  }));
}

/** Small fast deterministic PRNG (public-domain mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
