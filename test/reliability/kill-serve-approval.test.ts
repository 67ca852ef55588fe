import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { REMEDIATE_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import { deployment, scaleProposal } from './approval-harness.js';
import { recordFigure } from './figures.js';
import { startServeUnderTest, type ServeUnderTest } from './serve-process.js';

/**
 * kill -9 of the spawned `serve` at every step of an approval: after the proposal, after the
 * first vote, after the decisive vote before the job ran (serve --no-workers: the job waits in the
 * queue; the proposal itself is planned by the first serve's in-process remediate worker). After each restart the
 * request is byte-identical, the next click carries on, and the plan runs exactly once — counted as writes at the fake
 * Kubernetes API.
 */
let s: ServeUnderTest;

beforeAll(async () => {
  s = await startServeUnderTest([deployment('app-k')]);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('kill -9 of serve at every step of an approval', () => {
  it('3 kills (after proposal, after 1st vote, after decisive vote before the job): 0 approvals lost, 1 execution', async () => {
    let lost = 0;
    const killAndRestart = async (id: string, workers: boolean) => {
      const before = await s.raw(id);
      await s.kill9();
      await s.start({ workers });
      const after = await s.raw(id);
      if (!workers) {
        // Nothing can have moved it: the request is byte-identical.
        if (after !== before) lost += 1;
        expect(after).toBe(before);
        return;
      }
      // A serve with workers may already have taken the queued job: the request may only have moved
      // forward (executing/succeeded), with the same frozen plan and the same approvals.
      const b = JSON.parse(before!);
      const a = JSON.parse(after!);
      const same =
        a.hash === b.hash &&
        JSON.stringify(a.plan) === JSON.stringify(b.plan) &&
        JSON.stringify(a.approvals) === JSON.stringify(b.approvals);
      const forward = a.status === b.status || ['executing', 'succeeded'].includes(a.status);
      if (!same || !forward) lost += 1;
      expect({ same, forward }).toEqual({ same: true, forward: true });
    };

    // Proposing needs the remediate worker (it plans and dry-runs): this serve runs it; the
    // restarts below have none, so the decisive vote's job waits in the queue.
    await s.start({ workers: true });
    const id = await s.propose(scaleProposal('app-k'));
    expect((await s.get(id))!.status).toBe('pending');
    await killAndRestart(id, false);

    expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
    await killAndRestart(id, false);
    expect((await s.get(id))!.approvals.map((a) => a.user)).toEqual(['U0ANN']);

    expect(await s.vote(id, 'U0BEN')).toContain('last one needed');
    expect((await s.get(id))!.status).toBe('approved');
    // No remediate worker in a --no-workers serve: the job is queued and has not run.
    const bull = s.redis.duplicate({ maxRetriesPerRequest: null });
    const queue = new Queue(REMEDIATE_QUEUE, { connection: bull, prefix: queuePrefix('k8s-health', REMEDIATE_QUEUE) });
    expect(await queue.getJobState(id)).toBe('waiting');
    expect(s.realWrites('app-k')).toBe(0);
    // Killed with the job queued; the next serve (with workers) runs it.
    await killAndRestart(id, true);
    const done = await s.until('the queued job ran', async () => {
      const r = await s.get(id);
      return r && ['succeeded', 'failed', 'aborted', 'interrupted'].includes(r.status) && r;
    });
    expect(done.status).toBe('succeeded');
    expect(done.approvals.map((a) => a.user)).toEqual(['U0ANN', 'U0BEN']);

    // Killed again after it ran: nothing runs twice, later clicks are refused.
    await s.until('the result in the thread', async () =>
      s.slack.callsTo('chat.postMessage').find((c) => String(c.body.text).includes('done and verified')),
    );
    await s.kill9();
    await s.start({ workers: true });
    expect(await s.vote(id, 'U0ANN')).toContain('already succeeded');
    await queue.close();
    bull.disconnect();
    const writes = s.realWrites('app-k');
    recordFigure({
      suite: 'kill-9',
      case: 'serve killed at each approval step',
      tried: 3,
      bad: lost + Math.abs(writes - 1),
      note: 'after proposal, 1st vote, decisive vote; then once more after the run',
    });
    expect(writes).toBe(1);
    expect(s.kube.find('Deployment', 'app-k', 'apps')!.spec.replicas).toBe(0);
  }, 120_000);
});
