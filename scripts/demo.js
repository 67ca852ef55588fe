#!/usr/bin/env node
// `npm run demo`: the health summary of every bundled scenario cluster (examples/scenarios/), exactly as
// `k8s-health check --from DIR` prints it, then a replay of successive scans. No cluster, Redis or Slack needed.
import { readdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../dist/cli/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scenarios = path.join(root, 'examples', 'scenarios');
const io = { env: {}, stdout: process.stdout, stderr: process.stderr };
const rule = (title) => process.stdout.write(`\n${'═'.repeat(100)}\n${title}\n${'═'.repeat(100)}\n`);

const dirs = readdirSync(scenarios)
  .filter((d) => statSync(path.join(scenarios, d)).isDirectory())
  .sort();
const summary = [];
for (const d of dirs) {
  const dir = path.join(scenarios, d);
  const replay = readdirSync(dir).filter((t) => statSync(path.join(dir, t)).isDirectory() && existsSync(path.join(dir, t, 'meta.json'))).sort();
  if (!existsSync(path.join(dir, 'meta.json')) && replay.length) {
    rule(`${d}: ${replay.length} successive scans replayed (k8s-health check ${replay.map((t) => `--from ${t}`).join(' ')})`);
    const code = await runCli(['check', ...replay.flatMap((t) => ['--from', path.join(dir, t)])], io);
    summary.push([d, code]);
    continue;
  }
  rule(`${d}  (k8s-health check --from examples/scenarios/${d})`);
  const code = await runCli(['check', '--from', dir], io);
  summary.push([d, code]);
}
rule('Summary (exit status of each check: 0 no critical finding, 1 critical findings)');
for (const [d, code] of summary) process.stdout.write(`  ${String(code).padEnd(3)} ${d}\n`);
process.stdout.write('\nNext: `npx k8s-health check --from DIR --output json`, `npm test`, README.md for the Slack bot.\n');
