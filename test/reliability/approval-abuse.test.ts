import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import {
  deployment,
  EAST,
  EAST_GROUP,
  OTHER_GROUP,
  scaleProposal,
  startApprovalHarness,
  WEST,
  WEST_GROUP,
  type ApprovalHarness,
} from './approval-harness.js';
import { recordFigure, scaled, SOAK } from './figures.js';

/**
 * Approval abuse over signed Bolt interactions against the real approval flow: self-approval,
 * unauthorized users and groups, the same user twice, clicks on expired / rejected / executed requests,
 * tampered button values, another cluster's approvals. Every click must be refused — checked three ways:
 * the ephemeral reply, the stored request (status and approvals), and the audit stream (no `approved`
 * or `executing` event beyond the legitimate ones). Then 50 concurrent approve clicks execute once.
 */
let redisServer: RedisServer;
let h: ApprovalHarness;
const ROUNDS = SOAK; // concurrent-click rounds (×10 under soak)

beforeAll(async () => {
  redisServer = await startRedis();
  const names = ['app-r', 'app-w', 'app-x', 'app-j', 'app-e', ...Array.from({ length: ROUNDS }, (_, i) => `app-c${i}`)];
  h = await startApprovalHarness(
    redisServer,
    names.map((n) => deployment(n)),
  );
}, 60_000);

afterAll(async () => {
  await h?.close();
  await redisServer?.stop();
});

interface Attempt {
  category: string;
  value: string;
  user: string;
  kind?: 'approve' | 'reject';
  blockId?: string;
  channel?: string;
  /** The refusal the clicker must be told. */
  expect: RegExp;
}

const times = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const UNAUTHORIZED = /not an authorized approver/;
const UNKNOWN = /unknown \(or not from this message\)/;

describe('approval abuse: every click refused, none counted', () => {
  it(`${scaled(125)} abusive clicks across 9 categories: 0 counted (replies, request state, audit stream)`, async () => {
    const base = h.clock.now;
    // E is proposed (and approved once) 31 minutes in the past: it is past its 30-minute expiry now.
    h.clock.now = new Date(base.getTime() - 31 * 60_000);
    const E = await h.propose(scaleProposal('app-e'));
    expect(await h.click(E, 'U0ANN')).toContain('1 of 2');
    h.clock.now = base;
    const R = await h.propose(scaleProposal('app-r'));
    const W = await h.propose(scaleProposal('app-w'), { cluster: WEST });
    const X = await h.propose(scaleProposal('app-x'));
    const J = await h.propose(scaleProposal('app-j'));
    // The legitimate clicks: R gets one approval, X two (it executes), J is rejected, E expires on its first later
    // click.
    expect(await h.click(R, 'U0ANN')).toContain('1 of 2');
    expect(await h.click(X, 'U0ANN')).toContain('1 of 2');
    expect(await h.click(X, 'U0BEN')).toContain('last one needed');
    expect((await h.waitStatus(X, ['succeeded', 'failed', 'aborted'])).status).toBe('succeeded');
    expect(await h.click(J, 'U0BEN', { kind: 'reject' })).toContain('rejected');
    expect(await h.click(E, 'U0BEN')).toContain('expired');
    const legit = await Promise.all([R, W, X, J, E].map(async (id) => (await h.get(id))!));

    const s = scaled(1);
    const strangers = fc
      .sample(fc.stringMatching(/^U[0-9A-Z]{8,10}$/), { numRuns: 20 * s, seed: 9 })
      .map((u) => `U9${u.slice(2)}`);
    const tampered = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.stringMatching(/^r_[A-Za-z0-9_-]{1,64}$/),
        fc.constantFrom(
          '',
          'r_',
          'r_*',
          'r_../../approval',
          '*',
          'k8s-health:approval:*',
          `${R} `,
          R.toUpperCase(),
          `${R}\u0000`,
          'x'.repeat(2000),
        ),
      ),
      { numRuns: 15 * s, seed: 10 },
    );
    const eastUsers = [...EAST.users, ...EAST_GROUP.slice(0, 3)];
    const attempts: Attempt[] = [
      ...times(10 * s, () => ({ category: 'self-approval', value: R, user: 'U0PAT', expect: /does not count/ })),
      ...times(20 * s, (i) => ({
        category: 'unauthorized user',
        value: R,
        user: strangers[i]!,
        kind: i % 4 === 3 ? ('reject' as const) : ('approve' as const),
        expect: UNAUTHORIZED,
      })),
      ...times(10 * s, (i) => ({
        category: 'unauthorized group',
        value: R,
        user: [...OTHER_GROUP.members, ...WEST_GROUP][i % 5]!,
        kind: i % 2 ? ('reject' as const) : ('approve' as const),
        expect: UNAUTHORIZED,
      })),
      ...times(10 * s, () => ({ category: 'same user twice', value: R, user: 'U0ANN', expect: /already approved/ })),
      ...times(10 * s, (i) => ({
        category: 'expired request',
        value: E,
        user: eastUsers[i % eastUsers.length]!,
        expect: /already expired/,
      })),
      ...times(10 * s, (i) => ({
        category: 'rejected request',
        value: J,
        user: eastUsers[i % eastUsers.length]!,
        expect: /already rejected/,
      })),
      ...times(10 * s, (i) => ({
        category: 'executed request',
        value: X,
        user: eastUsers[i % eastUsers.length]!,
        kind: i % 2 ? ('reject' as const) : ('approve' as const),
        expect: /already succeeded/,
      })),
      ...tampered.map((value) => ({
        category: 'tampered value',
        value,
        user: 'U0BEN',
        channel: EAST.channel,
        expect: UNKNOWN,
      })),
      // A real request's id under another request's block (a value swapped into a message it is not from).
      ...times(5 * s, (i) => ({
        category: 'tampered value',
        value: [R, W, E][i % 3]!,
        user: 'U0BEN',
        blockId: `approval:${X}`,
        channel: EAST.channel,
        expect: UNKNOWN,
      })),
      // The right value and block, clicked from a channel the request does not live in.
      ...times(5 * s, () => ({
        category: 'tampered value',
        value: R,
        user: 'U0BEN',
        channel: WEST.channel,
        expect: UNKNOWN,
      })),
      // Another cluster's request: east approvers on west's, west's approver on east's.
      ...times(10 * s, (i) => ({
        category: 'another cluster',
        value: W,
        user: eastUsers[i % eastUsers.length]!,
        expect: UNAUTHORIZED,
      })),
      ...times(5 * s, (i) => ({
        category: 'another cluster',
        value: R,
        user: i % 2 ? 'U0WES' : WEST_GROUP[0]!,
        expect: UNAUTHORIZED,
      })),
      ...times(5 * s, () => ({
        category: 'another cluster',
        value: W,
        user: 'U0ANN',
        channel: EAST.channel,
        expect: UNKNOWN,
      })),
    ];
    expect(attempts.length).toBeGreaterThanOrEqual(scaled(125));

    // Ten at a time: concurrent abuse must not slip through the compare-and-set either.
    const wrong: string[] = [];
    for (let i = 0; i < attempts.length; i += 10) {
      await Promise.all(
        attempts.slice(i, i + 10).map(async (a) => {
          const reply = await h.click(a.value, a.user, { kind: a.kind, blockId: a.blockId, channel: a.channel });
          if (!a.expect.test(reply))
            wrong.push(`${a.category} (${a.user} ${a.kind ?? 'approve'} ${a.value.slice(0, 30)}): ${reply}`);
        }),
      );
    }

    // The stored requests are exactly as the legitimate clicks left them.
    const after = await Promise.all([R, W, X, J, E].map(async (id) => (await h.get(id))!));
    const changed = after
      .filter((r, i) => JSON.stringify(r) !== JSON.stringify(legit[i]))
      .map((r) => `${r.id} ${r.status} approvals=${r.approvals.map((a) => a.user).join(',')}`);
    // The audit stream: approvals and executions only from the legitimate clicks.
    const trails = await Promise.all([R, W, X, J, E].map((id) => h.audit(id)));
    const approvedEvents = trails.map((t) => t.filter((e) => e.event === 'approved').length);
    const executing = trails.map((t) => t.filter((e) => e.event === 'executing').length);
    const refusedOnPending = attempts.filter(
      (a) => (a.value === R || a.value === W) && !a.blockId && !a.channel,
    ).length;
    const refusedAudited = trails[0]!.concat(trails[1]!).filter((e) => e.event === 'refused').length;
    const writes = ['app-r', 'app-w', 'app-j', 'app-e'].map((n) => h.realWrites(n));

    const bad =
      wrong.length +
      changed.length +
      Math.max(0, approvedEvents.reduce((a, b) => a + b, 0) - 4) +
      Math.max(0, executing.reduce((a, b) => a + b, 0) - 1) +
      writes.reduce((a, b) => a + b, 0) +
      Math.max(0, h.realWrites('app-x') - 1);
    const byCategory = [...new Set(attempts.map((a) => a.category))]
      .map((c) => `${c} ${attempts.filter((a) => a.category === c).length}`)
      .join(', ');
    recordFigure({
      suite: 'approval-abuse',
      case: 'abusive clicks (9 categories)',
      tried: attempts.length,
      bad,
      note: byCategory,
    });
    expect(wrong).toEqual([]);
    expect(changed).toEqual([]);
    expect(approvedEvents).toEqual([1, 0, 2, 0, 1]);
    expect(executing).toEqual([0, 0, 1, 0, 0]);
    // Every refused click on a pending request is audited, with who clicked.
    expect(refusedAudited).toBe(refusedOnPending);
    expect(writes).toEqual([0, 0, 0, 0]);
    expect(h.realWrites('app-x')).toBe(1);
    expect(after.map((r) => r.status)).toEqual(['pending', 'pending', 'succeeded', 'rejected', 'expired']);
    expect(bad).toBe(0);
  }, 120_000);

  it(`${ROUNDS * 50} concurrent approve clicks (${ROUNDS} round(s) of 50 distinct approvers): exactly 1 execution per request`, async () => {
    let bad = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const name = `app-c${round}`;
      const id = await h.propose(scaleProposal(name));
      const replies = await Promise.all(EAST_GROUP.map((u) => h.click(id, u)));
      const done = await h.waitStatus(id, ['succeeded', 'failed', 'aborted', 'interrupted']);
      const trail = await h.audit(id);
      const decisive = replies.filter((r) => r.includes('last one needed')).length;
      const executions = trail.filter((e) => e.event === 'executing').length;
      bad +=
        Math.abs(decisive - 1) +
        Math.abs(executions - 1) +
        Math.abs(h.realWrites(name) - 1) +
        (done.status === 'succeeded' ? 0 : 1) +
        Math.abs(done.approvals.length - 2);
      expect(decisive).toBe(1);
      expect(replies.filter((r) => r.includes('is counted'))).toHaveLength(1);
      expect(replies.filter((r) => /already (approved|succeeded|executing)/.test(r))).toHaveLength(48);
      expect(done.status).toBe('succeeded');
      expect(executions).toBe(1);
      expect(h.realWrites(name)).toBe(1);
    }
    recordFigure({
      suite: 'approval-abuse',
      case: '50 concurrent approve clicks → 1 execution',
      tried: ROUNDS * 50,
      bad,
      note: `${ROUNDS} request(s)`,
    });
    expect(bad).toBe(0);
  }, 120_000);
});
