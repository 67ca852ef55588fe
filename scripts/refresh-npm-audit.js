#!/usr/bin/env node
// `npm run audit:refresh`: ask the npm registry for the advisories that affect package-lock.json
// (`npm audit --json`, every dependency, dev included: they run in CI) and write them, with the
// lockfile's digest, to security/npm-audit-snapshot.json, so `npm run audit:check` and
// test/security/dependency-advisories.test.ts check the lockfile offline. Needs the network once.
// When the registry does not answer, the old snapshot stays and the exit is 1; with
// --record-unavailable the snapshot then records that no advisories could be read, and why.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lockfileDigest, ROOT, SNAPSHOT } from './check-npm-audit.js';

const lockText = readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
const run = spawnSync('npm', ['audit', '--json', '--package-lock-only'], {
  cwd: ROOT,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = { message: (run.stderr || run.stdout || 'no output').split('\n').find(Boolean) };
}
const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim();
const base = {
  lockfileSha256: lockfileDigest(lockText),
  refreshedAt: new Date().toISOString(),
  command: 'npm audit --json --package-lock-only',
  npm: npmVersion,
};

if (report.auditReportVersion === 2) {
  // One entry per advisory and package: npm lists each under every package it reaches through.
  const seen = new Map();
  for (const v of Object.values(report.vulnerabilities ?? {})) {
    for (const via of v.via ?? []) {
      if (typeof via !== 'object' || via === null) continue;
      const key = `${via.source} ${via.name}`;
      if (!seen.has(key))
        seen.set(key, {
          id: via.source,
          package: via.name,
          severity: via.severity,
          range: via.range,
          title: via.title,
          url: via.url,
        });
    }
  }
  const advisories = [...seen.values()].sort(
    (a, b) => a.package.localeCompare(b.package) || String(a.id).localeCompare(String(b.id)),
  );
  writeFileSync(
    SNAPSHOT,
    `${JSON.stringify({ ...base, counts: report.metadata?.vulnerabilities ?? {}, advisories }, null, 2)}\n`,
  );
  process.stdout.write(`wrote ${path.relative(ROOT, SNAPSHOT)}: ${advisories.length} advisories affect the lockfile\n`);
} else {
  // The reason without addresses: the snapshot is committed.
  const why = String(report.message ?? report.error?.summary ?? 'no audit report')
    .replace(/https?:\/\/\S+/g, "the registry's audit endpoint")
    .slice(0, 300);
  process.stderr.write(
    `npm audit gave no report (${why})${process.argv.includes('--record-unavailable') ? '; recording that in the snapshot' : '; the snapshot is unchanged'}\n`,
  );
  if (process.argv.includes('--record-unavailable'))
    writeFileSync(SNAPSHOT, `${JSON.stringify({ ...base, advisories: null, unavailable: why }, null, 2)}\n`);
  process.exit(1);
}
