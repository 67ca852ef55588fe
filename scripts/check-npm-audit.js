#!/usr/bin/env node
// `npm run audit:check`: the lockfile against the committed advisory snapshot, offline
// (security/npm-audit-snapshot.json, written by scripts/refresh-npm-audit.js). Exit 0 when the
// snapshot is of this lockfile and no high or critical advisory affects a locked version; 1 otherwise.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SNAPSHOT = path.join(ROOT, 'security', 'npm-audit-snapshot.json');
/** Severities that fail the check; lower ones are listed. */
export const FAILING = new Set(['high', 'critical']);

/** The SHA-256 of the lockfile's bytes: the snapshot names the lockfile it was made from. */
export function lockfileDigest(text) {
  return createHash('sha256').update(text).digest('hex');
}

/** Every locked package as { name, version } (lockfile v2/v3 `packages`). */
export function lockedPackages(lock) {
  const out = [];
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (!key || !entry?.version) continue;
    out.push({
      name: entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version,
    });
  }
  return out;
}

/**
 * The lockfile against the snapshot: `stale` when the snapshot was made from another lockfile,
 * `unavailable` when it holds no advisories (the reason), and every advisory whose vulnerable range
 * holds a locked version, worst first.
 */
export function checkLockfile(lockText, snapshot) {
  const stale = snapshot.lockfileSha256 !== lockfileDigest(lockText);
  if (!Array.isArray(snapshot.advisories))
    return { stale, unavailable: snapshot.unavailable ?? 'the snapshot holds no advisories', findings: [] };
  const rank = ['critical', 'high', 'moderate', 'low', 'info'];
  const findings = [];
  for (const p of lockedPackages(JSON.parse(lockText))) {
    for (const a of snapshot.advisories) {
      if (a.package === p.name && semver.satisfies(p.version, a.range, { includePrerelease: true }))
        findings.push({ ...a, version: p.version });
    }
  }
  findings.sort((a, b) => rank.indexOf(a.severity) - rank.indexOf(b.severity) || a.package.localeCompare(b.package));
  return { stale, findings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lockText = readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
  const r = checkLockfile(lockText, JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  let failed = false;
  if (r.stale) {
    failed = true;
    process.stderr.write(
      'package-lock.json changed since the advisory snapshot: run `npm run audit:refresh` and commit security/npm-audit-snapshot.json\n',
    );
  }
  if (r.unavailable) {
    failed = true;
    process.stderr.write(
      `the advisory snapshot holds no advisories (${r.unavailable}): run \`npm run audit:refresh\` where the npm registry's audit endpoint answers\n`,
    );
  }
  for (const f of r.findings) {
    if (FAILING.has(f.severity)) failed = true;
    process.stdout.write(`${f.severity.padEnd(8)} ${f.package}@${f.version}  ${f.title ?? ''} ${f.url ?? ''}\n`);
  }
  process.exit(failed ? 1 : 0);
}
