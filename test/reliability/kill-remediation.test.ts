import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAuditLog } from '../../src/store/audit-log.js';
import { deployment, scaleProposal } from './approval-harness.js';
import { recordFigure } from './figures.js';
import { CHANNEL, startServeUnderTest, type ServeUnderTest } from './serve-process.js';

/**
 * kill -9 of the process running the remediate worker (`serve`, which runs it in-process) while a
 * remediation executes: the fake API holds requests (delayMs) so the PATCH is in flight at
 * the kill. After the restart BullMQ redelivers the stalled job (lock expiry, ~30 s); the request is
 * found `executing` and reported `interrupted` in its thread — never run a second time.
 */
let s: ServeUnderTest;

beforeAll(async () => {
  s = await startServeUnderTest([deployment('app-y')]);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('kill -9 during a remediation', () => {
  it('1 kill with the PATCH in flight: reported interrupted in the thread, 0 executed twice', async () => {
    await s.start({ workers: true });
    const id = await s.propose(scaleProposal('app-y'));
    const threadTs = (await s.get(id))!.thread.threadTs;
    expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
    // Hold every request at the fake API: the run's precondition read, then its PATCH, each wait 1.5 s.
    s.kube.delayMs = 1500;
    expect(await s.vote(id, 'U0BEN')).toContain('last one needed');
    await s.until(
      'the real PATCH in flight',
      async () =>
        s.kube.requests.some(
          (r) => r.method === 'PATCH' && r.path.endsWith('/deployments/app-y') && r.query.dryRun === undefined,
        ),
      30_000,
    );
    await s.kill9();
    s.kube.delayMs = 0;
    expect((await s.get(id))!.status).toBe('executing');
    // The fake API still applies the PATCH it received (the write happened; only its outcome is unknown).
    await s.until('the in-flight PATCH applied', async () => s.realWrites('app-y') === 1);

    await s.start({ workers: true });
    const done = await s.until(
      'the redelivered job',
      async () => {
        const r = await s.get(id);
        return r && r.status !== 'executing' && r;
      },
      90_000,
    );
    expect(done.status).toBe('interrupted');
    expect(done.result).toContain('interrupted');
    const report = await s.until('interrupted reported in the thread', async () =>
      s.slack
        .callsTo('chat.postMessage')
        .find(
          (c) =>
            c.body.channel === CHANNEL && c.body.thread_ts === threadTs && String(c.body.text).includes('interrupted'),
        ),
    );
    expect(String(report.body.text)).toContain('it was not run again');
    const trail = (await createAuditLog(s.redis, { keyPrefix: 'k8s-health:' }).list({ limit: 1000 }))
      .filter((e) => e.requestId === id)
      .map((e) => e.event)
      .reverse();
    expect(trail).toEqual(['proposed', 'approved', 'approved', 'executing', 'interrupted']);
    const writes = s.realWrites('app-y');
    recordFigure({
      suite: 'kill-9',
      case: 'worker killed during a remediation',
      tried: 1,
      bad: Math.abs(writes - 1) + (done.status === 'interrupted' ? 0 : 1),
      note: 'PATCH in flight; reported interrupted',
    });
    expect(writes).toBe(1);
  }, 150_000);
});
