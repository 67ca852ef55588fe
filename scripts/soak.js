#!/usr/bin/env node
// `npm run soak`: the reliability suite (test/reliability) with every count ×10 (K8S_HEALTH_SOAK=10),
// then a table of the figures each test recorded: what was tried and how many got through (should be 0).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const factor = process.env.K8S_HEALTH_SOAK ?? '10';
const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-soak-'));
const figures = path.join(dir, 'figures.jsonl');
const started = Date.now();
const run = spawnSync('npx', ['jest', '--runInBand', 'test/reliability'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_OPTIONS: '--experimental-vm-modules',
    K8S_HEALTH_SOAK: factor,
    K8S_HEALTH_FIGURES: figures,
  },
});
const rows = existsSync(figures)
  ? readFileSync(figures, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(dir, { recursive: true, force: true });

const pad = (s, n) => String(s).padEnd(n);
console.log(`\nk8s-health soak (counts ×${factor}, ${Math.round((Date.now() - started) / 1000)} s)\n`);
console.log(`${pad('suite', 16)}${pad('case', 46)}${pad('tried', 8)}${pad('bad', 5)}note`);
for (const r of rows)
  console.log(`${pad(r.suite, 16)}${pad(r.case, 46)}${pad(r.tried, 8)}${pad(r.bad, 5)}${r.note ?? ''}`);
const tried = rows.reduce((a, r) => a + r.tried, 0);
const bad = rows.reduce((a, r) => a + r.bad, 0);
console.log(`\ntotal: ${tried} tried, ${bad} bad; jest exit ${run.status}`);
process.exit(run.status === 0 && bad === 0 ? 0 : 1);
