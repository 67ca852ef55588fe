#!/usr/bin/env node
// `npm run demo`: the health summary of every bundled scenario cluster (examples/scenarios/), exactly as
// `k8s-health check --from DIR` prints it, then a replay of successive scans. No cluster, Redis or Slack needed.
import { readdirSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from '../dist/cli/run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scenarios = path.join(root, 'examples', 'scenarios');
const io = { env: {}, stdout: process.stdout, stderr: process.stderr };
/** Run a check and return its JSON report (for the closing summary). */
async function jsonReport(args) {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out += chunk;
      cb();
    },
  });
  await runCli([...args, '--output', 'json'], { env: {}, stdout: sink, stderr: process.stderr });
  return JSON.parse(out);
}
const rule = (title) => process.stdout.write(`\n${'═'.repeat(100)}\n${title}\n${'═'.repeat(100)}\n`);

const dirs = readdirSync(scenarios)
  .filter((d) => statSync(path.join(scenarios, d)).isDirectory())
  .sort();
const summary = [];
for (const d of dirs) {
  const dir = path.join(scenarios, d);
  const replay = readdirSync(dir)
    .filter((t) => statSync(path.join(dir, t)).isDirectory() && existsSync(path.join(dir, t, 'meta.json')))
    .sort();
  if (!existsSync(path.join(dir, 'meta.json')) && replay.length) {
    rule(
      `${d}: ${replay.length} successive scans replayed (k8s-health check ${replay.map((t) => `--from ${t}`).join(' ')})`,
    );
    const args = ['check', ...replay.flatMap((t) => ['--from', path.join(dir, t)])];
    const code = await runCli(args, io);
    summary.push([d, code, await jsonReport(args)]);
    continue;
  }
  rule(`${d}  (k8s-health check --from examples/scenarios/${d})`);
  const code = await runCli(['check', '--from', dir], io);
  summary.push([d, code, await jsonReport(['check', '--from', dir])]);
}
rule('Summary: exit status (0 no critical finding, 1 critical), overall status, and the worst finding');
const width = Math.max(...summary.map(([d]) => d.length));
for (const [d, code, report] of summary) {
  const worst = report.findings[0];
  const line = worst ? `${worst.severity}: ${worst.title}` : 'no findings';
  process.stdout.write(`  ${code}  ${d.padEnd(width)}  ${report.status.padEnd(8)}  ${line}\n`);
}
process.stdout.write(
  '\nNext: `npx k8s-health check --from DIR --output json`, `npm test`, README.md for the Slack bot.\n',
);
