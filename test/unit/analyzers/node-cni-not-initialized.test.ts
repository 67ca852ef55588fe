import { describe, expect, it } from '@jest/globals';
import { nodeCniNotInitializedAnalyzer } from '../../../src/diagnose/analyzers/node-cni-not-initialized.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { CNI_MSG, endpoints, event, node, pod, service, webhookConfig } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => nodeCniNotInitializedAnalyzer.analyze(buildContext(s));

describe('node.cni-not-initialized', () => {
  it.each([
    ['Ready node', [node('w1')]],
    ['NotReady for another reason', [node('w1', { ready: 'Unknown', sinceMin: 30 })]],
    ['CNI not ready for 20 s on a booting node', [node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 0.3 })]],
  ])('quiet: %s', (_l, nodes) => {
    expect(run(buildSnapshot({ nodes }))).toEqual([]);
  });

  it('warning quoting the NetworkPluginNotReady message, without a cause when no webhook blocks', () => {
    const [f] = run(buildSnapshot({ nodes: [node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 8 })] }));
    expect(f?.severity).toBe('warning');
    expect(f?.subject).toEqual({ kind: 'Node', name: 'w1' });
    expect(f?.evidence[0]).toContain('cni plugin not initialized');
    expect(f?.causedBy).toBeUndefined();
  });

  it('no Pods in the capture: says what was not captured instead of "no CNI agent pod", and lowers the confidence', () => {
    const nodes = [node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 8 })];
    const [f] = run(
      buildSnapshot({
        nodes,
        coverage: { Node: { state: 'read' }, Pod: { state: 'missing', why: 'not in the capture' } },
      }),
    );
    expect(f?.evidence.join('\n')).not.toContain('no CNI agent pod');
    expect(f?.missing).toEqual(['Pods not captured: whether a CNI agent pod runs on w1 is not known']);
    expect(f?.confidence).toBe('medium');
    expect(f?.cause).toContain('whether the CNI agent runs there is not known');
    // Pods listed (even none on this node): the absence is evidence.
    const [read] = run(buildSnapshot({ nodes, coverage: { Node: { state: 'read' }, Pod: { state: 'read' } } }));
    expect(read?.evidence.join('\n')).toContain('no CNI agent pod (antrea-agent, calico-node, …) on node w1');
    expect(read?.missing).toBeUndefined();
  });

  it('names the blocking webhook as cause (causedBy its fingerprint)', () => {
    const s = buildSnapshot({
      nodes: [node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 8 })],
      validatingWebhooks: [
        webhookConfig('ValidatingWebhookConfiguration', 'kyverno-resource-validating-webhook-cfg', [
          { name: 'validate.kyverno.svc-fail' },
        ]),
      ],
      services: [service('kyverno', 'kyverno-svc')],
      endpoints: [endpoints('kyverno', 'kyverno-svc', 0)],
      events: [
        event({
          reason: 'FailedCreate',
          message:
            'Error creating: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": dial tcp 10.96.1.2:443: connect: connection refused',
          involvedObject: { kind: 'DaemonSet', namespace: 'kube-system', name: 'antrea-agent' },
        }),
      ],
    });
    const [f] = run(s);
    expect(f?.cause).toContain('ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg');
    expect(f?.causedBy).toEqual([
      fingerprint(s.cluster, 'webhook.unavailable-blocking', {
        kind: 'ValidatingWebhookConfiguration',
        name: 'kyverno-resource-validating-webhook-cfg',
      }),
    ]);
  });

  it("an agent that runs and is ready points at the node's CNI config, not at a missing agent (sonobuoy kind capture)", () => {
    const kindnet = pod('kube-system', 'kindnet-x9fsq', {
      nodeName: 'w1',
      labels: { app: 'kindnet' },
      containers: [{ name: 'kindnet-cni', ready: true, restartCount: 0 }],
    });
    const [f] = run(
      buildSnapshot({ nodes: [node('w1', { ready: 'False', message: CNI_MSG, sinceMin: 8 })], pods: [kindnet] }),
    );
    expect(f?.cause).toBe(
      "CNI agent pod kube-system/kindnet-x9fsq is Running and ready, yet the kubelet on w1 finds no network configuration: check the agent's logs and the CNI config files on the node (/etc/cni/net.d).",
    );
  });
});
