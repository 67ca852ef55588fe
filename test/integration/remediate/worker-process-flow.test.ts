import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * `serve --no-workers` plus `worker` replicas is a supported install: the worker set (compose/compose-jobs.ts,
 * jobs/start-workers.ts, exactly what `k8s-health worker` runs) must execute approved fixes, not only scans and alerts.
 */
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'noisy', namespace: 'shop', uid: 'uid-noisy' },
  spec: { replicas: 4 },
} as unknown as KubeObject;

describe('approved fixes run in the worker set', () => {
  const bot = useApprovalBot({ objects: [deployment], workerSet: true });

  it('a decisive approval is executed once by startWorkers and reported in the thread', async () => {
    const { requestId, request } = await bot.runApproved({
      action: 'deployment.scale',
      params: { namespace: 'shop', name: 'noisy', replicas: 0 },
      label: 'Scale shop/noisy to 0',
      risk: 'r',
    });
    expect(request.status).toBe('succeeded');
    expect((bot.kube.find('Deployment', 'noisy', 'shop') as Any).spec.replicas).toBe(0);
    expect(bot.kube.writes.filter((w) => w.name === 'noisy' && !w.dryRun)).toHaveLength(1);
    expect(JSON.stringify((await bot.resultMessage(requestId)).body.blocks)).toContain('shop/noisy');
  }, 60_000);
});
