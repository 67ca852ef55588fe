import { describe, expect, it } from '@jest/globals';
import { parseDrainMessage } from '../../../src/diagnose/facts/parse-drain-message.js';

describe('parseDrainMessage: the drain progress Cluster API writes on a Machine being deleted', () => {
  it('reads the v1.9+ format (kubernetes-sigs/cluster-api drain_test.go TestEvictionResult_ConditionMessage, "short" case)', () => {
    const msg = `Drain not completed yet (started at 2024-10-09T16:13:59Z):
* Pods pod-2-deletionTimestamp-set-1, pod-3-to-trigger-eviction-successfully-1: deletionTimestamp set, but still not removed from the Node
* Pod pod-5-to-trigger-eviction-pdb-violated-1: cannot evict pod as it would violate the pod's disruption budget. The disruption budget pod-5-pdb needs 20 healthy pods and has 20 currently
* Pod pod-6-to-trigger-eviction-some-other-error: failed to evict Pod, some other error 1
After above Pods have been removed from the Node, the following Pods will be evicted: pod-7-eviction-later, pod-8-eviction-later`;
    expect(parseDrainMessage(msg)).toEqual({
      refusals: [
        { budget: 'pod-5-pdb', needs: 20, has: 20, pods: ['pod-5-to-trigger-eviction-pdb-violated-1'], morePods: 0 },
      ],
      terminating: ['pod-2-deletionTimestamp-set-1', 'pod-3-to-trigger-eviction-successfully-1'],
      evictionErrors: [{ error: 'some other error 1', pods: ['pod-6-to-trigger-eviction-some-other-error'] }],
      waitCompleted: [],
    });
  });

  it('reads the v1.8 format of the Cluster API book ("Node drain" → Observability), with "... (7 more)"', () => {
    const msg = `Drain not completed yet:
* Pods with deletionTimestamp that still exist: cert-manager/cert-manager-756d54fb98-hcb6k
* Pods with eviction failed:
  * Cannot evict pod as it would violate the pod's disruption budget. The disruption budget nginx needs 10 healthy pods and has 10 currently: test-namespace/nginx-deployment-6886c85ff7-2jtqm, test-namespace/nginx-deployment-6886c85ff7-7ggsd, test-namespace/nginx-deployment-6886c85ff7-f6z4s, ... (7 more)`;
    expect(parseDrainMessage(msg)).toEqual({
      refusals: [
        {
          budget: 'nginx',
          needs: 10,
          has: 10,
          pods: [
            'test-namespace/nginx-deployment-6886c85ff7-2jtqm',
            'test-namespace/nginx-deployment-6886c85ff7-7ggsd',
            'test-namespace/nginx-deployment-6886c85ff7-f6z4s',
          ],
          morePods: 7,
        },
      ],
      terminating: ['cert-manager/cert-manager-756d54fb98-hcb6k'],
      evictionErrors: [],
      waitCompleted: [],
    });
  });

  it('reads pods waiting for completion and ignores what it does not know', () => {
    const msg =
      'Drain not completed yet (started at 2025-01-01T00:00:00Z):\n* Pod batch/job-1: waiting for completion\n* 3 Pods with other issues\nsomething else';
    expect(parseDrainMessage(msg)).toEqual({
      refusals: [],
      terminating: [],
      evictionErrors: [],
      waitCompleted: ['batch/job-1'],
    });
    expect(parseDrainMessage(undefined)).toEqual({
      refusals: [],
      terminating: [],
      evictionErrors: [],
      waitCompleted: [],
    });
  });
});
