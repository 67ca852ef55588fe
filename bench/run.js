#!/usr/bin/env node
// `npm run bench [-- --scale small] [-- --iterations N]` — the performance targets, measured side by side in
// one run on loopback, printed as one table and written to bench/results/<time>-<scale>.json.
// docs/performance.md explains how to read it. Every process it starts is stopped by pid at the end.
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeYamlDump } from './write-yaml-dump.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const scale = arg('scale', 'default');
if (!['default', 'small'].includes(scale)) fail(`--scale must be "default" or "small", not "${scale}"`);
const iterations = Number(arg('iterations', scale === 'small' ? '7' : '5'));
const kubectlRuns = Number(arg('kubectl-runs', scale === 'small' ? '3' : '1'));
const out = path.join(root, 'dist-check');
/** Target 6: each request to the fleet's API server takes this long, as across a WAN (scans are I/O-bound). */
const FLEET_DELAY_MS = 100;
const children = new Set();

function fail(message) {
  console.error(`bench: ${message}`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(2);
}
function log(line) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

// 1. Compile the bench, the synthetic cluster and the fake API server (src comes along) into dist-check/.
log('compiling bench/ (tsc -p bench/tsconfig.json)');
rmSync(path.join(out, 'bench'), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'bench/tsconfig.json')],
  { stdio: 'inherit' },
);
// tsc emits despite type errors; `npm test` is where types are enforced. Missing output is fatal.
if (!existsSync(path.join(out, 'bench/measure-scan.js'))) fail('bench/ did not compile (see above)');
if (tsc.status !== 0) log('tsc reported type errors (above); running the emitted JavaScript anyway');

// `npm run bench -- alertmanager [--rounds 3]`: target 12 alone (docs/alertmanager.md, docs/performance.md).
if (args[0] === 'alertmanager') {
  printRows(`k8s-health bench — Alertmanager webhooks; node ${process.version}`, [
    await alertmanagerRow(Number(arg('rounds', '3'))),
  ]);
  process.exit(0);
}

/**
 * Target 12: 50 concurrent webhooks of 100 alerts (bench/measure-alertmanager.ts): ack p99, each alert once, threads =
 * root causes.
 */
async function alertmanagerRow(rounds) {
  log(`target 12: ${rounds} × 50 concurrent Alertmanager webhooks of 100 alerts into POST /alertmanager`);
  const load = (await import('node:os')).loadavg()[0];
  const { msg: am } = await runChild('measure-alertmanager.js', [root, String(rounds)], { heapMb: 2048 });
  const once = am.shown === am.sent && am.distinct === am.sent;
  return {
    id: 12,
    what: 'Alertmanager webhook ack, 50 concurrent × 100 alerts',
    value: `median ${fmt(am.ackMs.median)} ms, p99 ${fmt(am.ackMs.p99)} ms (n=${am.ackMs.n}); ${am.shown} shown / ${am.sent} sent (${am.distinct} distinct) in ${fmt(am.drainMs / 1000)} s; ${am.threads} thread(s)`,
    reference: `${am.rootCauses} root cause(s); load average ${load.toFixed(1)} at start on ${(await import('node:os')).cpus().length} CPUs`,
    ratio: null,
    goal: 'p99 ≤ 100 ms, each alert once, threads = root causes',
    pass: am.ackMs.p99 <= 100 && once && am.threads === am.rootCauses,
  };
}

// `npm run bench -- fleet [--clusters 1000] [--churn-minutes 3] [--samples 30] [--lease-seconds 15]
// [--steady-seconds 60] [--small 100] [--incident-sizes 10,100] [--incident-spread-seconds 10]
// [--incident-correlate-seconds 60] [--incident-only] [--redis-cluster]`: the fleet targets alone (docs/fleet.md,
// docs/performance.md); `--redis-cluster` runs the bot on a Redis Cluster of three masters instead of one redis-server.
if (args[0] === 'fleet') {
  await runFleet();
  process.exit(0);
}

/** Fork a compiled bench child, resolve with its first IPC message. */
function runChild(file, childArgs, { heapMb = 4096, keep = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(out, 'bench', file), childArgs, {
      execArgv: [`--max-old-space-size=${heapMb}`],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.add(child);
    child.once('message', (msg) => {
      if (!keep) children.delete(child);
      resolve({ msg, child });
    });
    child.once('exit', (code) => {
      children.delete(child);
      reject(new Error(`${file} exited with ${code} before answering`));
    });
  });
}

/** Run kubectl under /usr/bin/time -v; wall time (ms) and peak RSS (KiB). */
function runKubectl(kubectlArgs, env) {
  return new Promise((resolve, reject) => {
    const useTime = existsSync('/usr/bin/time');
    const cmd = useTime ? '/usr/bin/time' : 'kubectl';
    const full = useTime ? ['-v', 'kubectl', ...kubectlArgs] : kubectlArgs;
    const t = performance.now();
    const child = spawn(cmd, full, {
      env: { ...process.env, ...env },
      stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    });
    children.add(child);
    let stderr = '';
    let peakKb = 0;
    // Without GNU time, poll the high-water mark of the process.
    const poll = useTime
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) peakKb = Math.max(peakKb, Number(m[1]));
          } catch {
            /* exited */
          }
        }, 50);
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      children.delete(child);
      if (poll) clearInterval(poll);
      const ms = performance.now() - t;
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      if (m) peakKb = Number(m[1]);
      if (code !== 0)
        return reject(new Error(`kubectl ${kubectlArgs.join(' ')} failed (${code}): ${stderr.slice(0, 500)}`));
      resolve({ ms, peakKb });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Targets 9, 10 and 11: whole-process start-up of the CLI against a bare `node -e ''`, in turn (bare,
 * --help, check --from a small dump, a 7-node 44-pod dump as `kubectl get -o yaml` writes it, the same
 * objects as JSON) so a drift of the machine's speed hits all alike. Wall ms medians.
 */
function measureStartup(rounds) {
  const cli = path.join(root, 'bin/k8s-health.js');
  const small = path.join(root, 'examples/scenarios/benign-healthy');
  const { yamlDir, jsonDir } = writeYamlDump(yamlDumpDir);
  const cmds = {
    bare: ['-e', ''],
    help: [cli, '--help'],
    check: [cli, 'check', '--from', small],
    yaml: [cli, 'check', '--from', yamlDir],
    json: [cli, 'check', '--from', jsonDir],
  };
  const ms = { bare: [], help: [], check: [], yaml: [], json: [] };
  for (let i = 0; i <= rounds; i++) {
    for (const [k, argv] of Object.entries(cmds)) {
      const t = performance.now();
      const r = spawnSync(process.execPath, argv, { stdio: 'ignore' });
      if (r.status !== 0 && !(k !== 'bare' && k !== 'help' && r.status === 1))
        fail(`${k} start-up run exited ${r.status}`);
      if (i > 0) ms[k].push(performance.now() - t); // round 0 warms the file cache
    }
  }
  return {
    bareMs: median(ms.bare),
    helpMs: median(ms.help),
    checkMs: median(ms.check),
    yamlMs: median(ms.yaml),
    jsonMs: median(ms.json),
    yamlBytes: statSync(path.join(yamlDir, 'objects.yaml')).size,
    n: rounds,
  };
}

log('targets 9, 10, 11: CLI start-up (--help, check --from a small dump, a kubectl YAML dump) vs a bare node start');
const yamlDumpDir = mkdtempSync(path.join(tmpdir(), 'k8s-health-bench-yaml-'));
let startup;
try {
  startup = measureStartup(scale === 'small' ? 11 : 15);
} finally {
  rmSync(yamlDumpDir, { recursive: true, force: true });
}
// `npm run bench -- startup`: targets 9–11 alone (a minute, nothing else to install).
if (args[0] === 'startup') {
  printRows(`k8s-health bench — CLI start-up; node ${process.version}`, startupRows(startup));
  process.exit(0);
}

/** Rows 9–11 of the table: start-up ratios against a bare node start. */
function startupRows(st) {
  const rows = [];
  const row = (id, what, value, reference, ratio, goal, pass) =>
    rows.push({ id, what, value, reference, ratio, goal, pass });
  const bare = `bare node -e '' ${fmt(st.bareMs)} ms`;
  row(
    9,
    'CLI start-up: k8s-health --help',
    `median ${fmt(st.helpMs)} ms (n=${st.n})`,
    bare,
    st.helpMs / st.bareMs,
    '≤ 3×',
    st.helpMs / st.bareMs <= 3,
  );
  row(
    10,
    'CLI start-up: check --from a small dump',
    `median ${fmt(st.checkMs)} ms (n=${st.n})`,
    bare,
    st.checkMs / st.bareMs,
    '≤ 6×',
    st.checkMs / st.bareMs <= 6,
  );
  row(
    11,
    `CLI start-up: check --from a ${Math.round(st.yamlBytes / 1000)} KB kubectl YAML dump (7 nodes, 44 pods)`,
    `median ${fmt(st.yamlMs)} ms (n=${st.n}); same objects as JSON ${fmt(st.jsonMs)} ms`,
    bare,
    st.yamlMs / st.bareMs,
    '≤ 4×',
    st.yamlMs / st.bareMs <= 4,
  );
  return rows;
}

const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
if (probe.error)
  fail(
    'kubectl is not installed: run `apt-get install -y kubernetes-client` (Debian) — targets 3 and 5 compare against it',
  );

// 2. The synthetic cluster, served in its own process.
log(`generating the ${scale} synthetic cluster and starting the fake API server`);
const { msg: server, child: serverChild } = await runChild('serve-synthetic.js', [scale], {
  heapMb: 16384,
  keep: true,
});
log(
  `fake API server at ${server.url} (generated in ${(server.generateMs / 1000).toFixed(1)} s): ${JSON.stringify(server.scale)}`,
);
const results = { scale, startedAt: new Date().toISOString(), cluster: server.scale, node: process.version, rows: [] };

try {
  // 3. Targets 2 and 7: floor vs scan + analysis, alternating in one process.
  log(`targets 2, 7: floor vs live scan + analysis, ${iterations} timed rounds after a warm-up`);
  const { msg: scan } = await runChild('measure-scan.js', [server.url, String(iterations), server.controlUrl]);
  if (scan.partial.length) log(`scan partial entries: ${JSON.stringify(scan.partial)}`);
  results.scan = scan;

  // 4. Target 5: peak RSS of one scan in a fresh process (and of one floor fetch, for reference).
  log('target 5: peak RSS of a scan in a fresh process');
  const { msg: rss } = await runChild('measure-rss.js', [server.url, 'scan']);
  const { msg: floorRss } = await runChild('measure-rss.js', [server.url, 'floor']);
  const { msg: watchRss } = await runChild('measure-rss.js', [server.url, 'watch']);
  results.rss = { scan: rss, floor: floorRss, watch: watchRss };

  // 5. Targets 3 and 5: kubectl against the same fake server.
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'bench-kubectl-'));
  const kubeconfig = path.join(cacheDir, 'kubeconfig');
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
  const env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: path.join(cacheDir, 'cache') };
  const base = [`--server=${server.url}`, '--token=test-token', '--request-timeout=0'];
  const kinds = [
    'nodes',
    'pods',
    'events',
    'namespaces',
    'services',
    'endpoints',
    'persistentvolumeclaims',
    'deployments.apps',
    'daemonsets.apps',
    'statefulsets.apps',
    'replicasets.apps',
    'validatingwebhookconfigurations.admissionregistration.k8s.io',
    'mutatingwebhookconfigurations.admissionregistration.k8s.io',
    'volumeattachments.storage.k8s.io',
    'clusters.cluster.x-k8s.io',
    'machines.cluster.x-k8s.io',
    'machinesets.cluster.x-k8s.io',
    'machinedeployments.cluster.x-k8s.io',
    'kubeadmcontrolplanes.controlplane.cluster.x-k8s.io',
    'machinehealthchecks.cluster.x-k8s.io',
  ].join(',');
  await runKubectl([...base, 'get', 'namespaces', '-o', 'name'], env); // discovery cache warm-up, untimed
  log(`target 3: kubectl get <every kind> -A -o json, ${kubectlRuns} run(s)`);
  const kubectlAll = [];
  for (let i = 0; i < kubectlRuns; i++)
    kubectlAll.push(await runKubectl([...base, 'get', kinds, '-A', '-o', 'json'], env));
  log('target 5: kubectl get pods -A -o json');
  const kubectlPods = await runKubectl([...base, 'get', 'pods', '-A', '-o', 'json'], env);
  rmSync(cacheDir, { recursive: true, force: true });
  results.kubectl = { all: kubectlAll, pods: kubectlPods };

  // 6. Targets 1 and 4: the Slack app answering from the stored report.
  log('targets 1, 4: 50 concurrent signed /k8s-health into the Bolt receiver; answers from the stored report');
  const { msg: slack } = await runChild('measure-slack.js', [
    server.url,
    server.controlUrl,
    scale === 'small' ? '10' : '20',
  ]);
  results.slack = slack;

  // 7. Target 6: 200 small clusters behind a 100 ms API server, scanned by 1 then 2 `k8s-health worker` processes.
  log('target 6: 200 clusters scanned by 1, then 2 worker processes');
  const { msg: fleetServer, child: fleetChild } = await runChild(
    'serve-synthetic.js',
    ['fleet', String(FLEET_DELAY_MS)],
    { keep: true },
  );
  try {
    results.scaleOut = [];
    for (const workers of [1, 2])
      results.scaleOut.push((await runChild('measure-scale-out.js', [fleetServer.url, String(workers), '200'])).msg);
  } finally {
    fleetChild.send({ type: 'stop' });
  }

  // 8. The table.
  const kubectlMs = median(kubectlAll.map((k) => k.ms));
  const row = (id, what, value, reference, ratio, goal, pass) =>
    results.rows.push({ id, what, value, reference, ratio, goal, pass });
  const fmtMs = (s) => `median ${fmt(s.median)} ms, p99 ${fmt(s.p99)} ms (n=${s.n})`;
  row(
    1,
    'slash-command ack, 50 concurrent',
    fmtMs(slack.ackMs),
    `Bolt alone (listener only acks) ${fmtMs(slack.bareAckMs)}`,
    slack.ackMs.p99 / slack.bareAckMs.p99,
    'p99 ≤ 50 ms',
    slack.ackMs.p99 <= 50,
  );
  row(
    2,
    'live scan + analysis vs floor',
    fmtMs(scan.scanMs),
    `floor ${fmtMs(scan.floorMs)}`,
    scan.scanMs.median / scan.floorMs.median,
    '≤ 1.3×',
    scan.scanMs.median / scan.floorMs.median <= 1.3,
  );
  row(
    3,
    'live scan + analysis vs kubectl',
    `median ${fmt(scan.scanMs.median)} ms`,
    `kubectl get <kinds> -o json ${fmt(kubectlMs)} ms (n=${kubectlAll.length})`,
    scan.scanMs.median / kubectlMs,
    '≤ 0.15×',
    scan.scanMs.median / kubectlMs <= 0.15,
  );
  row(
    4,
    '/k8s-health from stored report vs live scan',
    `${fmtMs(slack.answerMs)}; ${slack.apiRequests} API requests / ${slack.commands} commands`,
    `live scan ${fmt(scan.scanMs.median)} ms`,
    slack.answerMs.median / scan.scanMs.median,
    '≤ 0.05×, 0 requests',
    slack.answerMs.median / scan.scanMs.median <= 0.05 && slack.apiRequests === 0,
  );
  row(
    5,
    'peak RSS of a scan vs kubectl pods',
    `${mb(rss.peakKb)} MB (floor ${mb(floorRss.peakKb)} MB, idle ${mb(rss.baselineKb)} MB)`,
    `kubectl get pods -A -o json ${mb(kubectlPods.peakKb)} MB`,
    rss.peakKb / kubectlPods.peakKb,
    '≤ 0.1×',
    rss.peakKb / kubectlPods.peakKb <= 0.1,
  );
  const [one, two] = results.scaleOut;
  row(
    6,
    'scale-out: 200 clusters, 2 workers vs 1',
    `2 workers ${two.perSecond.toFixed(1)} scans/s`,
    `1 worker ${one.perSecond.toFixed(1)} scans/s (API answers after ${FLEET_DELAY_MS} ms)`,
    two.perSecond / one.perSecond,
    '≥ 1.8×',
    two.perSecond / one.perSecond >= 1.8,
  );
  const w = scan.watch;
  row(
    8,
    'scan + analysis from a warm watch cache vs list scan',
    `${fmtMs(w.scanMs)}; ${w.requests} API requests / ${w.scans} scans (${w.requests / w.scans}/scan)`,
    `list scan ${fmt(scan.scanMs.median)} ms; cache warm-up ${fmt(w.warmMs)} ms; worker RSS with the cache ${mb(watchRss.peakKb)} MB vs ${mb(rss.peakKb)} MB`,
    w.scanMs.median / scan.scanMs.median,
    '≤ 0.5×, 1 request/scan (readyz)',
    w.scanMs.median / scan.scanMs.median <= 0.5 && w.requests === w.scans,
  );
  results.startup = startup;
  results.rows.push(...startupRows(startup));
  row(
    7,
    'analysis alone (pure analyzers)',
    fmtMs(scan.analyzeMs),
    `collect only ${fmtMs(scan.collectMs)}`,
    scan.analyzeMs.median / scan.scanMs.median,
    'reported (share of scan)',
    null,
  );
  results.rows.sort((a, b) => a.id - b.id);
  printTable(results);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `${results.startedAt.replace(/[:.]/g, '-')}-${scale}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  log(`written ${path.relative(root, file)}`);
} finally {
  serverChild.send({ type: 'stop' });
  setTimeout(() => serverChild.kill('SIGKILL'), 5000).unref();
}

function fmt(n) {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}
function mb(kb) {
  return (kb / 1024).toFixed(0);
}
function printTable(r) {
  const c = r.cluster;
  printRows(
    `k8s-health bench — ${r.scale}: ${c.nodes} nodes, ${c.pods} pods, ${c.machines} machines, ${c.events} events; ${r.scan.items} objects listed; ${r.scan.findings} findings; node ${r.node}`,
    r.rows,
  );
}

/** One table of targets: id, what, measured, reference, ratio, goal, PASS/MISS. */
function printRows(title, rows) {
  console.log(`\n${title}\n`);
  const lines = rows.map((x) => [
    String(x.id),
    x.what,
    x.value,
    x.reference,
    x.ratio === null ? '—' : `${x.ratio.toFixed(3)}×`,
    x.goal,
    x.pass === null ? '—' : x.pass ? 'PASS' : 'MISS',
  ]);
  const head = ['#', 'target', 'measured', 'reference (same run)', 'ratio', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const show = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join(' │ ');
  console.log(show(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'));
  for (const l of lines) console.log(show(l));
  console.log('');
}

/** Fleet: leases, event-driven scans and failover over many small clusters, in one run (bench/measure-fleet.ts). */
async function runFleet() {
  const clusters = Number(arg('clusters', '1000'));
  const churnMinutes = Number(arg('churn-minutes', '3'));
  const samples = Number(arg('samples', '30'));
  const leaseSeconds = Number(arg('lease-seconds', '15'));
  const steadySeconds = Number(arg('steady-seconds', '60'));
  const small = Number(arg('small', '100'));
  const incidentSizes = arg('incident-sizes', '10,100');
  const incidentSpread = Number(arg('incident-spread-seconds', '10'));
  const incidentCorrelate = Number(arg('incident-correlate-seconds', '60'));
  const redisTopology = args.includes('--redis-cluster') ? 'cluster' : 'single';
  const onRedis = redisTopology === 'cluster' ? ', on a Redis Cluster (3 masters)' : '';
  const rows = [];
  const row = (id, what, value, reference, ratio, goal, pass) =>
    rows.push({ id, what, value, reference, ratio, goal, pass });
  // F6–F8: one fault on many clusters of one channel (bench/measure-fleet-incident.ts).
  log(
    `fleet incidents: ${incidentSizes} clusters failing within ${incidentSpread} s into one channel, 2 workers, scan.correlateSeconds ${incidentCorrelate}${onRedis}`,
  );
  const { msg: inc } = await runChild(
    'measure-fleet-incident.js',
    [root, incidentSizes, String(incidentSpread), String(incidentCorrelate), redisTopology],
    { heapMb: 2048 },
  );
  for (const x of inc.sizes) {
    const a = x.firstAlertMs;
    row(
      `F6/${x.clusters}`,
      `${x.clusters} clusters failing within ${x.spreadSeconds} s, one channel: event → first message naming the cluster`,
      `median ${fmt(a.median)} ms, p99 ${fmt(a.p99)} ms (n=${a.n}, missed ${a.missed})`,
      `${x.clusters} parents at Slack's 1 message/s/channel: the last ≥ ${x.clusters} s`,
      a.p99 / (x.clusters * 1000),
      'p99 ≤ 5 s',
      a.p99 <= 5000 && a.missed === 0,
    );
    row(
      `F7/${x.clusters}`,
      'threads opened vs distinct root causes',
      `${x.threads} threads (${x.posts} messages)`,
      `${x.rootCauses} distinct root causes (id + correlationKey)`,
      x.threads / Math.max(1, x.rootCauses),
      '≤ 1.0×',
      x.threads <= x.rootCauses,
    );
    row(
      `F8/${x.clusters}`,
      "another cluster's objects in a report",
      `${x.foreignObjectsInReports} (own Machine quoted ${x.ownMachineQuoted} times)`,
      'every Machine in one namespace, every node of the same name',
      null,
      '0',
      x.foreignObjectsInReports === 0,
    );
  }
  if (args.includes('--incident-only')) {
    const results = {
      target: 'fleet-incident',
      startedAt: new Date().toISOString(),
      node: process.version,
      redis: redisTopology,
      incidents: inc,
      rows,
    };
    printRows(
      `k8s-health bench — fleet incidents: ${incidentSizes} clusters, one channel, 2 worker processes${onRedis}, node ${process.version}`,
      rows,
    );
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const file = path.join(root, 'bench/results', `${results.startedAt.replace(/[:.]/g, '-')}-fleet-incident.json`);
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
    log(`written ${path.relative(root, file)}`);
    return;
  }
  log(
    `fleet: ${clusters} clusters (and ${small}), 2 workers, lease ${leaseSeconds} s, ${samples} event samples, ${steadySeconds} s steady, ${churnMinutes} min churn${onRedis}`,
  );
  const { msg: r } = await runChild(
    'measure-fleet.js',
    [
      root,
      String(clusters),
      String(churnMinutes),
      String(samples),
      String(leaseSeconds),
      String(steadySeconds),
      String(small),
      redisTopology,
    ],
    { heapMb: 2048 },
  );
  const e = r.eventToAlert;
  row(
    'F1',
    'watch event → alert posted (fake Slack)',
    `median ${fmt(e.median)} ms, p99 ${fmt(e.p99)} ms (n=${e.n}, missed ${e.missed})`,
    `scan.intervalSeconds 60 000 ms`,
    e.p99 / 60_000,
    'p99 ≤ 5 s',
    e.p99 <= 5000 && e.missed === 0,
  );
  row(
    'F2',
    'API requests per cluster per minute, steady',
    `${r.steady.requestsPerClusterMinute.toFixed(2)} (LISTs ${r.steady.listsPerClusterMinute.toFixed(3)})`,
    `one list scan = ${r.big.kindsPerCluster} LISTs + discovery + readyz`,
    r.steady.requestsPerClusterMinute / (r.big.kindsPerCluster + 2),
    'reported; 0 LISTs',
    r.steady.listsPerClusterMinute === 0,
  );
  const c = r.churn;
  row(
    'F3',
    `LISTs per owner change per kind, ${c.minutes.toFixed(1)} min churn`,
    `${c.lists} LISTs / (${c.ownerChanges} owner changes × ${r.big.kindsPerCluster} kinds); ${c.cycles} kill -9 cycles`,
    '1 initial LIST per kind per owner change',
    c.listsPerOwnerChangePerKind,
    '≤ 1.0×, 0 duplicate watchers',
    c.listsPerOwnerChangePerKind <= 1.0 && c.duplicateWatchesMax === 0 && r.steady.duplicateWatches === 0,
  );
  row(
    'F4',
    'failover after kill -9 of a worker',
    `median ${fmt(c.failoverMs.median / 1000)} s, max ${fmt(c.failoverMs.p99 / 1000)} s (n=${c.failoverMs.n})`,
    `lease TTL ${leaseSeconds} s`,
    c.failoverMs.p99 / (leaseSeconds * 1000),
    '≤ 1.0× (≤ TTL)',
    c.failoverMs.p99 <= leaseSeconds * 1000,
  );
  const s = r.small;
  row(
    'F5',
    'RSS per watched cluster',
    `${(r.big.perClusterKb / 1024).toFixed(2)} MB at ${r.big.clusters} (workers ${r.big.kb.map((k) => (k / 1024).toFixed(0)).join(' + ')} MB)`,
    s
      ? `${(s.perClusterKb / 1024).toFixed(2)} MB at ${s.clusters}; idle worker ${(r.idleKb / 1024).toFixed(0)} MB`
      : `idle worker ${(r.idleKb / 1024).toFixed(0)} MB`,
    s ? r.big.perClusterKb / s.perClusterKb : null,
    'reported; flat (≈ 1×)',
    null,
  );
  const results = {
    target: 'fleet',
    startedAt: new Date().toISOString(),
    node: process.version,
    redis: redisTopology,
    fleet: r,
    incidents: inc,
    rows,
  };
  printRows(
    `k8s-health bench — fleet: ${clusters} clusters (${r.big.kindsPerCluster} watched kinds each), 2 worker processes, lease ${leaseSeconds} s${onRedis}, node ${process.version}`,
    rows,
  );
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `${results.startedAt.replace(/[:.]/g, '-')}-fleet.json`);
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  log(`written ${path.relative(root, file)}`);
}
