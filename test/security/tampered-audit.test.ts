import { beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { auditFields, hashAuditRecord } from '../../src/store/audit-log.js';
import { FORGED } from '../support/hostile-text.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

/**
 * Attack: rewriting the approval audit trail in Redis to hide or change what happened. After real flows (signed Bolt clicks, the worker) the trail is a hash chain with a MAC per
 * record; `k8s-health audit verify` must name the first broken link (exit 1) for an edited record, a
 * removed record, records cut from the end, and a chain recomputed from the edit onwards by someone
 * without K8S_HEALTH_PLAN_SECRET (caught by the MACs; hashes alone cannot catch it, and the command
 * says that it checked hashes only when the secret is not given).
 */
const STREAM = 'k8s-health:audit';
const HEAD = 'k8s-health:audit:head';
const web: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' }, spec: { replicas: 3 } } as unknown as KubeObject;

const bot = useApprovalBot({ objects: [web] });
let entries: [string, string[]][] = [];
let head = '';

beforeAll(async () => {
  await bot.runApproved({ action: 'deployment.scale', params: { namespace: 'shop', name: 'web', replicas: 1 }, label: 'Scale shop/web to 1', risk: 'r' });
  const { requestId } = await bot.propose({ action: 'deployment.scale', params: { namespace: 'shop', name: 'web', replicas: 0 }, label: 'Scale shop/web to 0', risk: 'r' });
  await bot.vote(requestId!, 'U0BEN', 'reject');
  entries = (await bot.redis.xrange(STREAM, '-', '+')) as [string, string[]][];
  head = (await bot.redis.get(HEAD))!;
}, 60_000);

const env = () => ({ REDIS_URL: bot.redisServer.url });
const verify = (secret?: string) => runCliInProcess(['audit', 'verify'], secret ? { ...env(), K8S_HEALTH_PLAN_SECRET: secret } : env());
/** Replace the whole stream (same entry ids, as XADD with explicit ids allows) and the head. */
async function rewrite(list: [string, string[]][], newHead: string): Promise<void> {
  await bot.redis.del(STREAM);
  for (const [id, fields] of list) await bot.redis.xadd(STREAM, id, ...fields);
  await bot.redis.set(HEAD, newHead);
}
async function restore(): Promise<void> {
  await rewrite(entries, head);
}
/** An entry with its event's detail replaced, chain fields kept. */
function edited([id, fields]: [string, string[]]): [string, string[]] {
  const f = auditFields(fields);
  const event = JSON.stringify({ ...JSON.parse(f.event!), detail: '0 of 2 approvals (nobody approved this)' });
  return [id, ['event', event, 'prev', f.prev!, 'hash', f.hash!, 'mac', f.mac!]];
}

describe('audit verify names the first broken link of a tampered trail', () => {
  it('the real trail is intact, MACs verified with the secret', async () => {
    expect(entries.length).toBe(7);
    const r = await verify(TEST_PLAN_SECRET);
    expect(r).toEqual({ code: 0, stderr: '', stdout: `intact, 7 records (head ${head.slice(0, 12)}); MACs verified\n` });
  });

  it('an edited record (the decisive approval made to say nobody approved): broken at that record', async () => {
    const i = entries.findIndex(([, f]) => auditFields(f).event!.includes('(decisive)'));
    await rewrite(entries.map((e, j) => (j === i ? edited(e) : e)), head);
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(`broken at record ${entries[i]![0]} (#${i + 1} oldest first, after ${i} intact): its content does not match its hash: the record was changed\n`);
    } finally {
      await restore();
    }
  });

  it('a removed record (XDEL of the execution step): broken at the record after it', async () => {
    const i = entries.findIndex(([, f]) => auditFields(f).event!.includes('"executing"'));
    await bot.redis.xdel(STREAM, entries[i]![0]);
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^broken at record ${entries[i + 1]![0]} \\(#${i + 1} oldest first, after ${i} intact\\): its prev [0-9a-f]{12}… is not the hash of the record before it \\([0-9a-f]{12}…\\): a record was removed or inserted before it\\n$`));
    } finally {
      await restore();
    }
  });

  it('the newest records cut from the end: broken at the end (the head names a record that is gone)', async () => {
    // The two newest steps (the rejection and its proposal) removed; the head key left as it was.
    await bot.redis.xdel(STREAM, entries[entries.length - 1]![0], entries[entries.length - 2]![0]);
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^broken at record \(end\) \(#6 oldest first, after 5 intact\): the chain head [0-9a-f]{12}… is not the newest record's hash [0-9a-f]{12}…: records were removed from the end\n$/);
    } finally {
      await restore();
    }
  });

  it('hostile chain fields (prev, head) written into Redis: the verdict stays one line without escapes', async () => {
    // What audit verify quotes from Redis: a record's `prev` and the head key, cut to 12 characters —
    // enough for a terminal escape and a line break that starts a forged verdict.
    const hostile = `\u001b[2J\n${FORGED} intact, 7 records\r\u202e`;
    const expectOneInertLine = (out: string) => {
      expect(out.endsWith('\n')).toBe(true);
      expect(out.slice(0, -1)).not.toMatch(/[\p{Cc}\p{Cf}]/u);
      expect(out.split('\n').slice(1)).toEqual(['']);
      expect(out).toMatch(/^broken at record /);
    };
    const i = 3;
    const [id, fields] = entries[i]!;
    const f = auditFields(fields);
    await rewrite(entries.map((e, j) => (j === i ? [id, ['event', f.event!, 'prev', hostile, 'hash', f.hash!, 'mac', f.mac!]] : e)), head);
    try {
      const r = await verify(TEST_PLAN_SECRET);
      expect(r.code).toBe(1);
      expectOneInertLine(r.stdout);
      expect(r.stdout).toContain(`broken at record ${id} (#${i + 1} oldest first, after ${i} intact): its prev `);
    } finally {
      await restore();
    }
    await bot.redis.set(HEAD, hostile);
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expectOneInertLine(r.stdout);
      expect(r.stdout).toContain('broken at record (end) (#8 oldest first, after 7 intact): the chain head ');
    } finally {
      await restore();
    }
  });

  it('a chain recomputed from the edit onwards without the secret: hashes hold, the MACs do not', async () => {
    const i = 2;
    const forged: [string, string[]][] = [];
    let prev = '';
    entries.forEach((e, j) => {
      const f = auditFields((j === i ? edited(e) : e)[1]);
      if (j < i) {
        forged.push(e);
        prev = f.hash!;
        return;
      }
      const hash = hashAuditRecord(prev, f.event!);
      // The attacker cannot compute a MAC: keeps the old one (or drops it).
      forged.push([e[0], ['event', f.event!, 'prev', prev, 'hash', hash, 'mac', j === i ? f.mac! : '']]);
      prev = hash;
    });
    await rewrite(forged, prev);
    try {
      const hashesOnly = await verify();
      expect(hashesOnly.code).toBe(0);
      expect(hashesOnly.stdout).toContain('MACs not checked: K8S_HEALTH_PLAN_SECRET is not set');
      const keyed = await verify(TEST_PLAN_SECRET);
      expect(keyed.code).toBe(1);
      expect(keyed.stdout).toBe(`broken at record ${entries[i]![0]} (#${i + 1} oldest first, after ${i} intact): its MAC does not verify with K8S_HEALTH_PLAN_SECRET: the chain was rewritten from here by someone without the secret\n`);
      const json = await runCliInProcess(['audit', 'verify', '--json'], { ...env(), K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET });
      expect(JSON.parse(json.stdout)).toMatchObject({ intact: false, records: i, macsChecked: true, broken: { id: entries[i]![0], index: i + 1 } });
    } finally {
      await restore();
    }
    expect((await verify(TEST_PLAN_SECRET)).code).toBe(0);
  });
});
