import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
// @ts-expect-error: a plain JavaScript script (scripts/), used by `npm run audit:check` too
import { checkLockfile, FAILING, lockedPackages, lockfileDigest, SNAPSHOT } from '../../scripts/check-npm-audit.js';

type Advisory = { id: string; package: string; severity: string; range: string; title?: string; url?: string };
type Snapshot = { lockfileSha256: string; advisories: Advisory[] | null; unavailable?: string };
type Result = { stale: boolean; unavailable?: string; findings: (Advisory & { version: string })[] };
const check = checkLockfile as (lockText: string, snapshot: Snapshot) => Result;

const lockText = readFileSync('package-lock.json', 'utf8');
const snapshot = JSON.parse(readFileSync(SNAPSHOT as string, 'utf8')) as Snapshot;

/**
 * Dependencies are checked for known advisories offline: security/npm-audit-snapshot.json holds what
 * `npm audit` reported for one lockfile (scripts/refresh-npm-audit.js), and the lockfile is checked
 * against it here and by `npm run audit:check`. A lockfile changed without a refreshed snapshot fails;
 * a high or critical advisory on a locked version fails.
 */
describe('dependency advisories, offline', () => {
  it('the committed snapshot is of this lockfile, and says what it holds', () => {
    expect(check(lockText, snapshot).stale).toBe(false);
    // Either advisories, or why there are none (the registry's audit endpoint not answering where it was made).
    expect(
      Array.isArray(snapshot.advisories) ||
        (typeof snapshot.unavailable === 'string' && snapshot.unavailable.length > 0),
    ).toBe(true);
  });

  it('no high or critical advisory in the snapshot affects a locked version', () => {
    expect(check(lockText, snapshot).findings.filter((f) => (FAILING as Set<string>).has(f.severity))).toEqual([]);
  });

  it('the check finds an advisory whose range holds a locked version, and a lockfile changed since the snapshot', () => {
    const locked = (lockedPackages as (lock: unknown) => { name: string; version: string }[])(JSON.parse(lockText));
    const target = locked.find((p) => p.name === 'ioredis')!;
    const advisories: Advisory[] = [
      {
        id: 'TEST-1',
        package: 'ioredis',
        severity: 'critical',
        range: `<=${target.version}`,
        title: 'synthetic: affects the locked version',
      },
      {
        id: 'TEST-2',
        package: 'ioredis',
        severity: 'high',
        range: `>${target.version}`,
        title: 'synthetic: fixed in the locked version',
      },
    ];
    const r = check(lockText, { lockfileSha256: lockfileDigest(lockText) as string, advisories });
    expect(r).toEqual({ stale: false, findings: [expect.objectContaining({ id: 'TEST-1', version: target.version })] });
    expect(check(`${lockText}\n`, { lockfileSha256: lockfileDigest(lockText) as string, advisories }).stale).toBe(true);
  });

  it('the Dockerfile pins every base image by digest', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    const images = [...dockerfile.matchAll(/^ARG NODE_IMAGE=(\S+)$/gm)].map((m) => m[1]);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^node:22-bookworm-slim@sha256:[0-9a-f]{64}$/);
    for (const from of dockerfile.matchAll(/^FROM\s+(\S+)/gm)) expect(from[1]).toBe('${NODE_IMAGE}');
  });
});
