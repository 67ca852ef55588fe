import { beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from '@jest/globals';
import { auditFields } from '../../src/store/audit-log.js';
import { hashAuditRecordV2, signAuditHead } from '../../src/store/audit-chain.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { FORGED } from '../support/hostile-text.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

/**
 * Attack: rewriting the approval audit trail in Redis to hide or change what happened. After real
 * flows (signed Bolt clicks, the worker) the trail is a numbered hash chain with a MAC per record and
 * a signed head; `k8s-health audit verify` must name the first broken link (exit 1) for an edited
 * record, a removed record, records cut from the end (head rewritten or not), records cut from the
 * start, a wipe, a stream rebuilt with unchained records, and a chain recomputed from the edit
 * onwards by someone without K8S_HEALTH_PLAN_SECRET (caught by the MACs; hashes alone cannot catch
 * it, and the command says that it checked hashes only when the secret is not given). What Redis
 * alone cannot show — the newest records removed together with an older signed head put back — the
 * bot's own audit log lines do: `audit verify --log FILE`.
 */
const STREAM = '{k8s-health:audit}:audit';
const HEAD = '{k8s-health:audit}:audit:head';
const web: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

const bot = useApprovalBot({ objects: [web] });
let entries: [string, string[]][] = [];
let head = '';
let dir: string;
let logFile: string;

beforeAll(async () => {
  await bot.runApproved({
    action: 'deployment.scale',
    params: { namespace: 'shop', name: 'web', replicas: 1 },
    label: 'Scale shop/web to 1',
    risk: 'r',
  });
  const { requestId } = await bot.propose({
    action: 'deployment.scale',
    params: { namespace: 'shop', name: 'web', replicas: 0 },
    label: 'Scale shop/web to 0',
    risk: 'r',
  });
  await bot.vote(requestId!, 'U0BEN', 'reject');
  entries = (await bot.redis.xrange(STREAM, '-', '+')) as [string, string[]][];
  head = (await bot.redis.get(HEAD))!;
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-audit-log-'));
  logFile = path.join(dir, 'serve.log');
  // The log pipeline's copy: every line the bot wrote, with a kubectl-style timestamp prefix.
  writeFileSync(logFile, bot.logs.map((l) => `2026-11-28T00:00:00Z ${l}`).join('\n'));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The head the bot signed right after record i (what an attacker who watched Redis then could have
 * kept): the same fields and MAC the append wrote.
 */
function signedHeadAfter(i: number): string {
  const f = auditFields(entries[i]![1]);
  return JSON.stringify(
    signAuditHead(createPlanSigner(TEST_PLAN_SECRET), {
      chain: f.chain!,
      seq: Number(f.seq),
      hash: f.hash!,
      cap: JSON.parse(head).cap as number,
    }),
  );
}

const env = () => ({ REDIS_URL: bot.redisServer.url });
const verify = (secret?: string, args: string[] = []) =>
  runCliInProcess(['audit', 'verify', ...args], secret ? { ...env(), K8S_HEALTH_PLAN_SECRET: secret } : env());
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
  return [id, ['event', event, 'chain', f.chain!, 'seq', f.seq!, 'prev', f.prev!, 'hash', f.hash!, 'mac', f.mac!]];
}

describe('audit verify names the first broken link of a tampered trail', () => {
  it('the real trail is intact, MACs verified with the secret', async () => {
    expect(entries.length).toBe(7);
    const r = await verify(TEST_PLAN_SECRET);
    const hash = JSON.parse(head).hash as string;
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `intact, 7 records (head #7 ${hash.slice(0, 12)}); MACs verified; not compared with the log (--log FILE)\n`,
    });
    expect(await verify(TEST_PLAN_SECRET, ['--log', logFile])).toEqual({
      code: 0,
      stderr: '',
      stdout: `intact, 7 records (head #7 ${hash.slice(0, 12)}); MACs verified; all 7 logged records found\n`,
    });
  });

  it('an edited record (the decisive approval made to say nobody approved): broken at that record', async () => {
    const i = entries.findIndex(([, f]) => auditFields(f).event!.includes('(decisive)'));
    await rewrite(
      entries.map((e, j) => (j === i ? edited(e) : e)),
      head,
    );
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(
        `broken at record ${entries[i]![0]} (#${i + 1} oldest first, after ${i} intact): its content does not match its hash: the record was changed\n`,
      );
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
      expect(r.stdout).toBe(
        `broken at record ${entries[i + 1]![0]} (#${i + 1} oldest first, after ${i} intact): its number #${i + 2} does not follow #${i}: records were removed or inserted before it\n`,
      );
    } finally {
      await restore();
    }
  });

  it('the newest records cut from the end, head left: broken at the end (the head names a record that is gone)', async () => {
    // The two newest steps (the rejection and its proposal) removed; the head key left as it was.
    await bot.redis.xdel(STREAM, entries[entries.length - 1]![0], entries[entries.length - 2]![0]);
    try {
      const r = await verify();
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /^broken at record \(end\) \(#6 oldest first, after 5 intact\): the head names record #7 \([0-9a-f]{12}…\) but the newest record is #5 \([0-9a-f]{12}…\): records were removed from the end\n$/,
      );
    } finally {
      await restore();
    }
  });

  it("the newest records cut and the head rewritten without the secret: the head's MAC does not verify", async () => {
    const f = auditFields(entries[4]![1]);
    await bot.redis.xdel(STREAM, entries[6]![0], entries[5]![0]);
    await bot.redis.set(HEAD, JSON.stringify({ ...JSON.parse(head), seq: 5, hash: f.hash!, mac: '' }));
    try {
      expect((await verify()).code).toBe(0); // hashes and links alone hold: only the secret shows it
      const r = await verify(TEST_PLAN_SECRET);
      expect(r).toEqual({
        code: 1,
        stderr: '',
        stdout:
          "broken at record (head) (#6 oldest first, after 5 intact): the head's MAC does not verify with K8S_HEALTH_PLAN_SECRET: it was written by someone without the secret\n",
      });
    } finally {
      await restore();
    }
  });

  it('the newest records cut and an older signed head put back: Redis holds together, the log lines do not', async () => {
    await bot.redis.xdel(STREAM, entries[6]![0], entries[5]![0]);
    await bot.redis.set(HEAD, signedHeadAfter(4));
    try {
      const alone = await verify(TEST_PLAN_SECRET);
      expect(alone.code).toBe(0);
      expect(alone.stdout).toMatch(/^intact, 5 records .*not compared with the log/);
      const r = await verify(TEST_PLAN_SECRET, ['--log', logFile]);
      expect(r).toEqual({
        code: 1,
        stderr: '',
        stdout:
          'does not match the log (5 records intact in Redis, 5 of 6 logged records found): the log has record #6, Redis ends at #5: records were removed from the end (and an older head put back)\n',
      });
    } finally {
      await restore();
    }
  });

  it('the oldest records cut: broken at the start, not "trimmed"', async () => {
    await bot.redis.xdel(STREAM, entries[0]![0], entries[1]![0]);
    try {
      const r = await verify();
      expect(r).toEqual({
        code: 1,
        stderr: '',
        stdout: `broken at record ${entries[2]![0]} (#1 oldest first, after 0 intact): the oldest record is #3, but with head #7 and cap 100000 it must be #1: records were removed from the start\n`,
      });
    } finally {
      await restore();
    }
  });

  it('a wipe (stream and head deleted): a failure, and the log names the chain that is gone', async () => {
    await bot.redis.del(STREAM, HEAD);
    try {
      const r = await verify(TEST_PLAN_SECRET);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(
        'broken at record (head) (#0 oldest first, after 0 intact): no audit records and no head in Redis: the trail was wiped, or nothing was ever audited against this Redis (compare with --log)\n',
      );
      // The bot goes on auditing after the wipe: a new chain, intact on its own; the log shows the old one.
      await bot.audit.append({
        at: new Date().toISOString(),
        cluster: 'prod-east',
        requestId: 'r_after',
        event: 'proposed',
        actor: 'U0PAT',
        detail: 'after the wipe',
      } as never);
      expect((await verify(TEST_PLAN_SECRET)).code).toBe(0);
      const logged = await verify(TEST_PLAN_SECRET, ['--log', logFile]);
      expect(logged.code).toBe(1);
      expect(logged.stdout).toMatch(
        /the log has record #1 of chain [0-9a-f]{12}, which Redis does not hold \(it holds chain [0-9a-f]{12}\): the trail was wiped or replaced\n$/,
      );
    } finally {
      await restore();
    }
  });

  it('the stream rebuilt with unchained records (head kept): a failure, not a note', async () => {
    await rewrite(
      entries.map(([id, fields]) => [id, ['event', auditFields(fields).event!]]),
      head,
    );
    try {
      const r = await verify();
      expect(r).toEqual({
        code: 1,
        stderr: '',
        stdout: `broken at record ${entries[0]![0]} (#1 oldest first, after 0 intact): record carries no chain fields (chain, seq, hash): unchained, inserted or rebuilt\n`,
      });
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
    await rewrite(
      entries.map((e, j) =>
        j === i
          ? [id, ['event', f.event!, 'chain', f.chain!, 'seq', f.seq!, 'prev', hostile, 'hash', f.hash!, 'mac', f.mac!]]
          : e,
      ),
      head,
    );
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
      expect(r.stdout).toContain(
        'broken at record (head) (#0 oldest first, after 0 intact): the head is not a signed chain head',
      );
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
      const hash = hashAuditRecordV2({ chain: f.chain!, seq: Number(f.seq), prev, event: f.event! });
      // The attacker cannot compute a MAC: keeps the old one (or drops it).
      forged.push([
        e[0],
        ['event', f.event!, 'chain', f.chain!, 'seq', f.seq!, 'prev', prev, 'hash', hash, 'mac', j === i ? f.mac! : ''],
      ]);
      prev = hash;
    });
    // The head too, keeping its old MAC: the first failure is the record where the rewrite starts.
    await rewrite(forged, JSON.stringify({ ...JSON.parse(head), hash: prev }));
    try {
      const hashesOnly = await verify();
      expect(hashesOnly.code).toBe(0);
      expect(hashesOnly.stdout).toContain('MACs not checked: K8S_HEALTH_PLAN_SECRET is not set');
      const keyed = await verify(TEST_PLAN_SECRET);
      expect(keyed.code).toBe(1);
      expect(keyed.stdout).toBe(
        `broken at record ${entries[i]![0]} (#${i + 1} oldest first, after ${i} intact): its MAC does not verify with K8S_HEALTH_PLAN_SECRET: the chain was rewritten from here by someone without the secret\n`,
      );
      const json = await runCliInProcess(['audit', 'verify', '--json'], {
        ...env(),
        K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET,
      });
      expect(JSON.parse(json.stdout)).toMatchObject({
        intact: false,
        records: i,
        macsChecked: true,
        broken: { id: entries[i]![0], index: i + 1 },
      });
    } finally {
      await restore();
    }
    expect((await verify(TEST_PLAN_SECRET)).code).toBe(0);
  });
});
