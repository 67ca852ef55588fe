// A dump as `kubectl get nodes,pods -A -o yaml` writes it: 7 nodes and 44 pods with their managedFields,
// about 300 KB of YAML (the size a user reported taking 8× a bare node start), and the same objects as
// JSON beside it. Start-up target 11 (docs/performance.md) reads both.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dump } from 'js-yaml';

const T = '2026-11-20T08:00:00Z';

function managedFields(manager, fields) {
  return [{ apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields, manager, operation: 'Update', time: T }];
}

function node(i) {
  const name = i < 3 ? `cp-${i}` : `worker-${i - 3}`;
  const labels = {
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': 'm5.xlarge',
    'topology.kubernetes.io/zone': `eu-west-1${'abc'[i % 3]}`,
  };
  if (i < 3) labels['node-role.kubernetes.io/control-plane'] = '';
  const conditions = ['MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
    lastHeartbeatTime: T,
    lastTransitionTime: T,
    message: `kubelet has sufficient ${type}`,
    reason: `KubeletHasSufficient${type}`,
    status: 'False',
    type,
  }));
  conditions.push({
    lastHeartbeatTime: T,
    lastTransitionTime: T,
    message: 'kubelet is posting ready status',
    reason: 'KubeletReady',
    status: 'True',
    type: 'Ready',
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: T,
      labels,
      managedFields: managedFields('kubelet', {
        'f:metadata': { 'f:labels': Object.fromEntries(Object.keys(labels).map((k) => [`f:${k}`, {}])) },
        'f:status': {
          'f:conditions': Object.fromEntries(
            conditions.map((c) => [
              `k:{"type":"${c.type}"}`,
              { '.': {}, 'f:lastHeartbeatTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} },
            ]),
          ),
        },
      }),
      name,
      resourceVersion: String(100000 + i),
      uid: `0000000${i}-aaaa-4bbb-8ccc-dddddddddddd`,
    },
    spec: {
      podCIDR: `10.244.${i}.0/24`,
      podCIDRs: [`10.244.${i}.0/24`],
      providerID: `aws:///eu-west-1a/i-0${i}abcdef`,
    },
    status: {
      addresses: [
        { address: `10.0.0.${10 + i}`, type: 'InternalIP' },
        { address: name, type: 'Hostname' },
      ],
      allocatable: { cpu: '4', 'ephemeral-storage': '95551679124', memory: '15784112Ki', pods: '110' },
      capacity: { cpu: '4', 'ephemeral-storage': '103675972Ki', memory: '15886512Ki', pods: '110' },
      conditions,
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: Array.from({ length: 5 }, (_, k) => ({
        names: [
          `registry.k8s.io/image-${k}@sha256:${'0123456789abcdef'.repeat(4)}`,
          `registry.k8s.io/image-${k}:v1.${k}.0`,
        ],
        sizeBytes: 10000000 + k,
      })),
      nodeInfo: {
        architecture: 'amd64',
        bootID: 'b',
        containerRuntimeVersion: 'containerd://1.7.13',
        kernelVersion: '6.1.0',
        kubeProxyVersion: 'v1.30.2',
        kubeletVersion: 'v1.30.2',
        machineID: 'm',
        operatingSystem: 'linux',
        osImage: 'Ubuntu 22.04.4 LTS',
        systemUUID: 's',
      },
    },
  };
}

function pod(i) {
  const ns = ['kube-system', 'default', 'shop', 'monitoring'][i % 4];
  const app = `app-${i % 11}`;
  const name = `${app}-7d9f8c6b5-${String(i).padStart(5, 'x')}`;
  const container = (c) => ({
    args: ['--port=8080', `--name=${app}`],
    image: `registry.example.com/${app}:1.${c}.0`,
    imagePullPolicy: 'IfNotPresent',
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
    name: `c${c}`,
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [
      { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: 'kube-api-access', readOnly: true },
    ],
  });
  const containers = i % 3 ? [container(0)] : [container(0), container(1)];
  const conditions = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(
    (type) => ({ lastProbeTime: null, lastTransitionTime: T, status: 'True', type }),
  );
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      creationTimestamp: T,
      generateName: `${app}-7d9f8c6b5-`,
      labels: { app, 'pod-template-hash': '7d9f8c6b5' },
      managedFields: [
        ...managedFields('kube-controller-manager', {
          'f:metadata': {
            'f:generateName': {},
            'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} },
            'f:ownerReferences': { '.': {}, 'k:{"uid":"r"}': {} },
          },
          'f:spec': {
            'f:containers': Object.fromEntries(
              containers.map((c) => [
                `k:{"name":"${c.name}"}`,
                {
                  '.': {},
                  'f:args': {},
                  'f:image': {},
                  'f:imagePullPolicy': {},
                  'f:livenessProbe': {},
                  'f:name': {},
                  'f:ports': {},
                  'f:resources': {},
                },
              ]),
            ),
          },
        }),
        ...managedFields('kubelet', {
          'f:status': {
            'f:conditions': Object.fromEntries(
              conditions.map((c) => [
                `k:{"type":"${c.type}"}`,
                { '.': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
              ]),
            ),
            'f:containerStatuses': {},
            'f:hostIP': {},
            'f:phase': {},
            'f:podIP': {},
            'f:startTime': {},
          },
        }),
      ],
      name,
      namespace: ns,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          blockOwnerDeletion: true,
          controller: true,
          kind: 'ReplicaSet',
          name: `${app}-7d9f8c6b5`,
          uid: 'r',
        },
      ],
      resourceVersion: String(200000 + i),
      uid: `1111${String(i).padStart(4, '0')}-aaaa-4bbb-8ccc-dddddddddddd`,
    },
    spec: {
      containers,
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      nodeName: i % 7 < 3 ? `cp-${i % 7}` : `worker-${(i % 7) - 3}`,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            ],
          },
        },
      ],
    },
    status: {
      conditions,
      containerStatuses: containers.map((c) => ({
        containerID: `containerd://${'ab'.repeat(32)}`,
        image: c.image,
        imageID: `${c.image}@sha256:${'0123456789abcdef'.repeat(4)}`,
        lastState: {},
        name: c.name,
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: T } },
      })),
      hostIP: '10.0.0.10',
      phase: 'Running',
      podIP: `10.244.0.${i}`,
      podIPs: [{ ip: `10.244.0.${i}` }],
      qosClass: 'Burstable',
      startTime: T,
    },
  };
}

/** Writes DIR/yaml/objects.yaml and DIR/json/objects.json (the same List); returns both directories. */
export function writeYamlDump(dir) {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [...Array.from({ length: 7 }, (_, i) => node(i)), ...Array.from({ length: 44 }, (_, i) => pod(i))],
    metadata: { resourceVersion: '' },
  };
  const yamlDir = path.join(dir, 'yaml');
  const jsonDir = path.join(dir, 'json');
  mkdirSync(yamlDir, { recursive: true });
  mkdirSync(jsonDir, { recursive: true });
  writeFileSync(path.join(yamlDir, 'objects.yaml'), dump(list, { lineWidth: -1 }));
  writeFileSync(path.join(jsonDir, 'objects.json'), JSON.stringify(list, null, 4));
  return { yamlDir, jsonDir };
}
