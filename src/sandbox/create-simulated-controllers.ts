import { createHash, randomUUID } from 'node:crypto';
import type { KubeObject } from '../cluster/snapshot.js';
import type { FakeKubeApi } from './kube-api/start-fake-kube-api.js';

/**
 * The live cluster's own controllers, as far as the sandbox's incident needs them (docs/sandbox.md
 * "The live cluster heals"): one reconcile pass per "next scan", before the scan.
 */
export interface SimulatedControllers {
  /** One pass at simulated time `now`; returns one line per change, for the sandbox's log. */
  reconcile(now: Date): string[];
}

type Webhook = {
  failurePolicy?: string;
  rules?: Array<{ resources?: string[] }>;
  clientConfig?: { service?: { name?: string; namespace?: string } };
};
type Condition = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  severity?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
};

const WEBHOOK_KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const;
/** What the kubelet says while the runtime has no pod network (the scenario's new nodes). */
const CNI_NOT_READY = /NetworkPluginNotReady|cni plugin not initialized/i;

/**
 * What the cluster's controllers do once pods can be created again, as scripted state changes of
 * the simulated API servers' objects — never on a timer: while a webhook configuration blocks pod
 * creation (a `failurePolicy: Fail` webhook on pods whose Service has no ready endpoint: the
 * scenario's kyverno, seed 003) nothing moves, as in the recording. Once the approved fix deleted it
 * (the API server recorded the DELETE) each pass moves the cluster one step towards health:
 *
 * 1. the machine controller finishes deleting Machines marked for deletion (their Nodes and pods go);
 * 2. KubeadmControlPlane goes on with its rollout, one machine at a time (maxSurge 1): with more
 *    machines than replicas it deletes the oldest outdated one, and with fewer up-to-date machines
 *    than replicas it creates one (a Machine and its Node with the static control-plane pods,
 *    joined within the pass: one pass stands for the 6 minutes of a "next scan"); it waits while a
 *    machine of it is not healthy;
 * 3. the DaemonSet controller creates the missing pods (the CNI agent on the new nodes: admitted now);
 * 4. the kubelet of a node whose CNI agent runs reports Ready (the CNI is initialized);
 * 5. statuses follow: Machine NodeHealthy, KubeadmControlPlane replicas/version/conditions,
 *    MachineHealthCheck healthy counts, TanzuKubernetesCluster Ready once the rollout is done.
 *
 * Restoring the webhook (the fix's undo) blocks pod creation again: progress stops there. What the
 * controllers wrote is never undone (running pods stay), as in a real cluster. Events are left as
 * recorded. Every timestamp is the sandbox clock's.
 */
export function createSimulatedControllers(opts: {
  workload: FakeKubeApi;
  management: FakeKubeApi;
}): SimulatedControllers {
  const { workload, management } = opts;
  let created = 0;

  const put = (api: FakeKubeApi, obj: KubeObject) => api.emit('MODIFIED', obj);
  const add = (api: FakeKubeApi, obj: KubeObject) => api.emit('ADDED', obj);
  const remove = (api: FakeKubeApi, obj: KubeObject) => api.emit('DELETED', obj);

  /** Webhook configurations that refuse pod creation now (failurePolicy Fail, no ready endpoint). */
  function findBlockingWebhooks(): string[] {
    const out: string[] = [];
    for (const kind of WEBHOOK_KINDS) {
      for (const cfg of workload.list(kind)) {
        const hooks: Webhook[] = Array.isArray(cfg.webhooks) ? cfg.webhooks : [];
        const blocks = hooks.some((h) => {
          // failurePolicy defaults to Fail in admissionregistration/v1.
          if (h.failurePolicy !== undefined && h.failurePolicy !== 'Fail') return false;
          const onPods = (h.rules ?? []).some((r) => r.resources?.some((x) => x === 'pods' || x === '*'));
          const svc = h.clientConfig?.service;
          return onPods && svc?.name !== undefined && !hasReadyEndpoint(svc.namespace ?? 'default', svc.name);
        });
        if (blocks) out.push(`${kind} ${cfg.metadata.name}`);
      }
    }
    return out;
  }

  function hasReadyEndpoint(namespace: string, name: string): boolean {
    const ep = workload.find('Endpoints', name, namespace);
    const subsets: Array<{ addresses?: unknown[] }> = Array.isArray(ep?.subsets) ? ep.subsets : [];
    return subsets.some((s) => (s.addresses?.length ?? 0) > 0);
  }

  /** The webhook DELETEs the API server carried out (dry runs excluded), for the log line. */
  function deletedWebhooks(): string[] {
    return workload.writes
      .filter((w) => w.method === 'DELETE' && !w.dryRun && (WEBHOOK_KINDS as readonly string[]).includes(w.kind))
      .map((w) => `${w.kind} ${w.name}`);
  }

  function removeNode(name: string, log: string[]): void {
    const node = workload.find('Node', name);
    if (!node) return;
    for (const pod of workload.list('Pod').filter((p) => p.spec?.nodeName === name)) remove(workload, pod);
    remove(workload, node);
    log.push(`Node ${name} and its pods removed`);
  }

  function removeMachine(m: KubeObject, log: string[]): void {
    remove(management, m);
    log.push(`Machine ${m.metadata.namespace}/${m.metadata.name} deleted`);
    const nodeName = m.status?.nodeRef?.name;
    if (typeof nodeName === 'string') removeNode(nodeName, log);
  }

  /** A KCP's machines (controller owner reference). */
  const machinesOf = (kcp: KubeObject) =>
    management
      .list('Machine', kcp.metadata.namespace)
      .filter((m) =>
        (m.metadata.ownerReferences ?? []).some(
          (r: { kind?: string; name?: string }) => r.kind === 'KubeadmControlPlane' && r.name === kcp.metadata.name,
        ),
      );

  const isNodeReady = (name: unknown) =>
    typeof name === 'string' && conditionOf(workload.find('Node', name), 'Ready')?.status === 'True';

  /** A new control-plane machine like `template` (its newest up-to-date one): Machine, Node, static pods. */
  function createMachine(kcp: KubeObject, template: KubeObject, at: string, log: string[]): void {
    const name = `${kcp.metadata.name}-${suffix(`${kcp.metadata.namespace}/${kcp.metadata.name}/${++created}`)}`;
    const templateNode =
      typeof template.status?.nodeRef?.name === 'string'
        ? workload.find('Node', template.status.nodeRef.name)
        : undefined;
    const machine = structuredClone(template);
    const nodeUid = randomUUID();
    machine.metadata = { ...machine.metadata, name, uid: randomUUID(), creationTimestamp: at, generation: 1 };
    delete machine.metadata.resourceVersion;
    delete machine.metadata.deletionTimestamp;
    machine.spec = { ...machine.spec, version: kcp.spec?.version, providerID: `vsphere://${randomUUID()}` };
    if (machine.spec.bootstrap?.configRef)
      machine.spec.bootstrap = {
        ...machine.spec.bootstrap,
        configRef: { ...machine.spec.bootstrap.configRef, name, uid: randomUUID() },
        dataSecretName: name,
      };
    if (machine.spec.infrastructureRef)
      machine.spec.infrastructureRef = { ...machine.spec.infrastructureRef, name, uid: randomUUID() };
    const address = nextAddress();
    machine.status = {
      ...machine.status,
      phase: 'Running',
      addresses: [{ type: 'ExternalIP', address }],
      nodeRef: { apiVersion: 'v1', kind: 'Node', name, uid: nodeUid },
      lastUpdated: at,
      conditions: ['Ready', 'BootstrapReady', 'InfrastructureReady'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: at,
      })),
    };
    add(management, machine);
    log.push(`Machine ${kcp.metadata.namespace}/${name} created (${kcp.spec?.version})`);
    if (!templateNode) return;
    // The kubelet registers the node NotReady: no CNI yet (the DaemonSet controller comes next).
    const node = structuredClone(templateNode);
    node.metadata = {
      ...node.metadata,
      name,
      uid: nodeUid,
      creationTimestamp: at,
      labels: { ...node.metadata.labels, 'kubernetes.io/hostname': name },
    };
    delete node.metadata.resourceVersion;
    node.spec = { ...node.spec, providerID: machine.spec.providerID };
    node.status = {
      ...node.status,
      addresses: [
        { type: 'InternalIP', address },
        { type: 'Hostname', address: name },
      ],
      conditions: (node.status?.conditions ?? []).map((c: Condition) =>
        c.type === 'Ready'
          ? {
              ...c,
              status: 'False',
              reason: 'KubeletNotReady',
              message:
                'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
              lastTransitionTime: at,
              lastHeartbeatTime: at,
            }
          : { ...c, lastTransitionTime: at, lastHeartbeatTime: at },
      ),
    };
    add(workload, node);
    // kubeadm join: the static control-plane pods, as on the template's node.
    for (const pod of workload
      .list('Pod')
      .filter((p) => p.spec?.nodeName === templateNode.metadata.name && isStaticPod(p))) {
      const copy = structuredClone(pod);
      const base = pod.metadata.name.slice(0, -templateNode.metadata.name.length);
      copy.metadata = {
        ...copy.metadata,
        name: `${base}${name}`,
        uid: randomUUID(),
        creationTimestamp: at,
        ownerReferences: (pod.metadata.ownerReferences ?? []).map((r) =>
          r.kind === 'Node' ? { ...r, name, uid: nodeUid } : r,
        ),
      };
      delete copy.metadata.resourceVersion;
      copy.spec = { ...copy.spec, nodeName: name };
      copy.status = startedStatus(copy, at);
      add(workload, copy);
    }
    log.push(`Node ${name} joined (NotReady until its CNI agent runs)`);
  }

  function nextAddress(): string {
    const used = management
      .list('Machine')
      .flatMap((m) => (m.status?.addresses ?? []).map((a: { address?: string }) => a.address ?? ''));
    const last =
      used
        .filter((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a))
        .sort((a, b) => ipNumber(a) - ipNumber(b))
        .at(-1) ?? '10.244.0.0';
    const parts = last.split('.').map(Number);
    parts[3] = (parts[3]! + 1) % 255;
    return parts.join('.');
  }

  /** 2. KubeadmControlPlane: one rollout step per pass; its status from its machines. */
  function reconcileControlPlanes(at: string, log: string[]): void {
    for (const kcp of management.list('KubeadmControlPlane')) {
      const version = kcp.spec?.version as string | undefined;
      const replicas = typeof kcp.spec?.replicas === 'number' ? kcp.spec.replicas : 1;
      let machines = machinesOf(kcp);
      const healthy = machines.every((m) => !m.metadata.deletionTimestamp && isNodeReady(m.status?.nodeRef?.name));
      const outdated = machines.filter((m) => m.spec?.version !== version).sort(byCreation);
      if (healthy && outdated.length && machines.length > replicas) {
        removeMachine(outdated[0]!, log);
        machines = machinesOf(kcp);
      }
      const upToDate = machines.filter((m) => m.spec?.version === version).sort(byCreation);
      if (healthy && upToDate.length < replicas && machines.length <= replicas && upToDate.length) {
        createMachine(kcp, upToDate.at(-1)!, at, log);
      }
    }
  }

  /** 3. DaemonSets: a pod on every node that lacks one (like one of its pods), then their status. */
  function reconcileDaemonSets(at: string, log: string[]): void {
    const nodes = workload.list('Node');
    for (const ds of workload.list('DaemonSet')) {
      const owned = (p: KubeObject) =>
        (p.metadata.ownerReferences ?? []).some(
          (r: { kind?: string; name?: string }) => r.kind === 'DaemonSet' && r.name === ds.metadata.name,
        );
      const pods = workload.list('Pod', ds.metadata.namespace).filter(owned);
      const template = pods.find((p) => p.status?.phase === 'Running');
      if (template) {
        for (const node of nodes) {
          if (pods.some((p) => p.spec?.nodeName === node.metadata.name)) continue;
          const pod = structuredClone(template);
          pod.metadata = {
            ...pod.metadata,
            name: `${ds.metadata.name}-${suffix(`${ds.metadata.name}/${node.metadata.name}`)}`,
            uid: randomUUID(),
            creationTimestamp: at,
          };
          delete pod.metadata.resourceVersion;
          pod.spec = { ...pod.spec, nodeName: node.metadata.name };
          pod.status = startedStatus(pod, at);
          add(workload, pod);
          log.push(
            `DaemonSet ${ds.metadata.namespace}/${ds.metadata.name}: pod ${pod.metadata.name} created on ${node.metadata.name}`,
          );
        }
      }
      const now = workload.list('Pod', ds.metadata.namespace).filter(owned);
      const ready = now.filter((p) => p.status?.phase === 'Running').length;
      const status = {
        ...ds.status,
        desiredNumberScheduled: nodes.length,
        currentNumberScheduled: now.length,
        updatedNumberScheduled: now.length,
        numberReady: ready,
        numberAvailable: ready,
        numberUnavailable: Math.max(0, nodes.length - ready),
      };
      if (JSON.stringify(status) !== JSON.stringify(ds.status)) put(workload, { ...structuredClone(ds), status });
    }
  }

  /** 4. Kubelets: a node without pod network reports Ready once a CNI agent pod runs on it. */
  function reconcileNodes(at: string, log: string[]): void {
    const agents = workload
      .list('Pod')
      .filter(
        (p) =>
          p.status?.phase === 'Running' &&
          (p.metadata.ownerReferences ?? []).some((r: { kind?: string }) => r.kind === 'DaemonSet'),
      );
    for (const node of workload.list('Node')) {
      const ready = conditionOf(node, 'Ready');
      if (!ready || ready.status === 'True' || !CNI_NOT_READY.test(ready.message ?? '')) continue;
      if (!agents.some((p) => p.spec?.nodeName === node.metadata.name)) continue;
      const next = structuredClone(node);
      next.status.conditions = next.status.conditions.map((c: Condition) =>
        c.type === 'Ready'
          ? {
              ...c,
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastTransitionTime: at,
              lastHeartbeatTime: at,
            }
          : { ...c, lastHeartbeatTime: at },
      );
      if (Array.isArray(next.spec?.taints))
        next.spec.taints = next.spec.taints.filter((t: { key?: string }) => t.key !== 'node.kubernetes.io/not-ready');
      put(workload, next);
      log.push(`Node ${node.metadata.name} Ready (CNI initialized)`);
    }
  }

  /** 5. Statuses that follow the nodes: Machine NodeHealthy, KCP, MachineHealthCheck, TanzuKubernetesCluster. */
  function reconcileStatuses(at: string, log: string[]): void {
    for (const m of management.list('Machine')) {
      if (m.metadata.deletionTimestamp || typeof m.status?.nodeRef?.name !== 'string') continue;
      const healthy = isNodeReady(m.status.nodeRef.name);
      const current = conditionOf(m, 'NodeHealthy');
      if (!healthy || current?.status === 'True') continue;
      const next = structuredClone(m);
      next.status.conditions = setCondition(next.status.conditions, {
        type: 'NodeHealthy',
        status: 'True',
        lastTransitionTime: at,
      });
      next.status.lastUpdated = at;
      put(management, next);
    }
    for (const kcp of management.list('KubeadmControlPlane')) {
      const version = kcp.spec?.version as string | undefined;
      const machines = machinesOf(kcp);
      const updated = machines.filter((m) => m.spec?.version === version).length;
      const ready = machines.filter((m) => isNodeReady(m.status?.nodeRef?.name)).length;
      const replicas = typeof kcp.spec?.replicas === 'number' ? kcp.spec.replicas : 1;
      const done = updated === machines.length && machines.length === replicas && ready === replicas;
      const next = structuredClone(kcp);
      next.status = {
        ...next.status,
        replicas: machines.length,
        updatedReplicas: updated,
        readyReplicas: ready,
        unavailableReplicas: machines.length - ready,
      };
      if (done) {
        next.status.version = version;
        for (const type of ['Ready', 'MachinesSpecUpToDate', 'MachinesReady'])
          next.status.conditions = setCondition(next.status.conditions, {
            type,
            status: 'True',
            lastTransitionTime: at,
          });
      } else {
        const message = `Rolling ${replicas} replicas with outdated spec (${updated} replicas up to date)`;
        for (const type of ['Ready', 'MachinesSpecUpToDate']) {
          const c = conditionOf(next, type);
          if (c?.status === 'False') next.status.conditions = setCondition(next.status.conditions, { ...c, message });
        }
      }
      if (JSON.stringify(next.status) === JSON.stringify(kcp.status)) continue;
      put(management, next);
      if (done && conditionOf(kcp, 'Ready')?.status !== 'True') {
        log.push(`KubeadmControlPlane ${kcp.metadata.namespace}/${kcp.metadata.name}: rollout to ${version} complete`);
        for (const tkc of management.list('TanzuKubernetesCluster', kcp.metadata.namespace)) {
          const t = structuredClone(tkc);
          t.status = {
            ...t.status,
            phase: 'running',
            conditions: setCondition(t.status?.conditions, { type: 'Ready', status: 'True', lastTransitionTime: at }),
          };
          put(management, t);
        }
      }
    }
    for (const mhc of management.list('MachineHealthCheck')) {
      const match = (mhc.spec?.selector?.matchLabels ?? {}) as Record<string, string>;
      const targets = management
        .list('Machine', mhc.metadata.namespace)
        .filter(
          (m) =>
            !m.metadata.deletionTimestamp &&
            Object.entries(match).every(([k, v]) => (m.metadata.labels ?? {})[k] === v),
        );
      const healthy = targets.filter((m) => isNodeReady(m.status?.nodeRef?.name)).length;
      const status = {
        ...mhc.status,
        expectedMachines: targets.length,
        currentHealthy: healthy,
        targets: targets.map((m) => m.metadata.name),
      };
      if (JSON.stringify(status) !== JSON.stringify(mhc.status)) put(management, { ...structuredClone(mhc), status });
    }
  }

  return {
    reconcile(now) {
      const blocking = findBlockingWebhooks();
      if (blocking.length) return [];
      const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const log: string[] = [];
      // 1. The machine controller finishes what it was deleting.
      for (const m of management.list('Machine').filter((x) => x.metadata.deletionTimestamp)) removeMachine(m, log);
      const catchUp = () => {
        reconcileDaemonSets(at, log);
        reconcileNodes(at, log);
        reconcileStatuses(at, log);
      };
      // A pass stands for the 6 minutes of a "next scan": the blocked nodes get their CNI, then KCP
      // (which reacts within seconds) takes its next rollout step, whose new node gets its CNI too.
      catchUp();
      reconcileControlPlanes(at, log);
      catchUp();
      if (log.length)
        log.unshift(
          `pods can be created again (${deletedWebhooks().join(', ') || 'no blocking webhook'} deleted): the cluster's controllers catch up`,
        );
      return log;
    },
  };
}

/** CAPI / ReplicaSet-like name suffix: 5 characters of [a-z0-9], stable for the same input. */
function suffix(seed: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const bytes = createHash('sha256').update(seed).digest();
  return [...bytes.subarray(0, 5)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** kubeadm's static pods carry a Node as their owner. */
function isStaticPod(p: KubeObject): boolean {
  return (p.metadata.ownerReferences ?? []).some((r: { kind?: string }) => r.kind === 'Node');
}

/** A pod's status once its containers started at `at`. */
function startedStatus(pod: KubeObject, at: string): Record<string, unknown> {
  const containers = (pod.spec?.containers ?? []) as Array<{ name: string; image?: string }>;
  return {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True', lastTransitionTime: at },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
    ],
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      ready: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
    })),
    ...(pod.status?.hostIP ? { hostIP: pod.status.hostIP } : {}),
  };
}

function conditionOf(obj: KubeObject | undefined, type: string): Condition | undefined {
  const list = obj?.status?.conditions;
  return Array.isArray(list) ? (list as Condition[]).find((c) => c.type === type) : undefined;
}

/** Replace (or add) a condition; a transition time changes only when the status does. */
function setCondition(list: Condition[] | undefined, c: Condition): Condition[] {
  const all = Array.isArray(list) ? list : [];
  const old = all.find((x) => x.type === c.type);
  const next: Condition =
    old && old.status === c.status
      ? { ...old, ...c, lastTransitionTime: old.lastTransitionTime }
      : {
          type: c.type,
          status: c.status,
          ...(c.message && c.status !== 'True' ? { message: c.message } : {}),
          ...(c.reason && c.status !== 'True' ? { reason: c.reason } : {}),
          ...(c.severity && c.status !== 'True' ? { severity: c.severity } : {}),
          lastTransitionTime: c.lastTransitionTime,
        };
  return old ? all.map((x) => (x.type === c.type ? next : x)) : [...all, next];
}

function byCreation(a: KubeObject, b: KubeObject): number {
  return String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? ''));
}

function ipNumber(ip: string): number {
  return ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}
