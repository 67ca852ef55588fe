#!/usr/bin/env node
/**
 * Preflight of `npm test`: the tests start a real redis-server (a Sentinel topology with redis-sentinel, a Redis
 * Cluster made with redis-cli) and a real 3-member etcd, use etcdctl and kubectl as peers, openssl for the etcd TLS
 * certificates, and drive the sandbox page in the system's headless Chromium (playwright-core never downloads a browser
 * of its own here). When a command is missing it is installed with the system package manager where that is possible
 * without asking (root, or passwordless sudo, on a Debian/Ubuntu machine); otherwise the run stops with one line naming
 * the exact command to run. Only the packages whose command is missing are installed: a machine may already carry a
 * command from another package (a kubectl from a "kubectl" package), and asking apt for the Debian one would then fail
 * on the file conflict.
 */
import { spawnSync } from 'node:child_process';

/** command → Debian package that provides it */
const NEEDED = [
  ['redis-server', 'redis-server'],
  ['redis-sentinel', 'redis-sentinel'],
  ['redis-cli', 'redis-tools'],
  ['etcd', 'etcd-server'],
  ['etcdctl', 'etcd-client'],
  ['kubectl', 'kubernetes-client'],
  ['openssl', 'openssl'],
  ['chromium', 'chromium'],
  ['prometheus-alertmanager', 'prometheus-alertmanager'],
];

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const missing = NEEDED.filter(([cmd]) => !has(cmd));
if (missing.length === 0) process.exit(0);

const names = missing.map(([cmd]) => cmd).join(', ');
const pkgs = missing.map(([, pkg]) => pkg);
const hint = `sudo apt-get update && sudo apt-get install -y ${pkgs.join(' ')}`;

const apt = has('apt-get');
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = !root && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
if (!apt || (!root && !sudo)) {
  console.error(
    `npm test needs ${names}: run \`${hint}\`${apt ? '' : ' (or the equivalent for your system)'}, then npm test again`,
  );
  process.exit(1);
}

const run = (args) => {
  const cmd = root ? args[0] : 'sudo';
  const argv = root ? args.slice(1) : ['-n', ...args];
  const r = spawnSync(cmd, argv, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
};
console.error(`preflight: installing ${pkgs.join(' ')} (for ${names})`);
if (!run(['apt-get', 'update']) || !run(['apt-get', 'install', '-y', ...pkgs])) {
  console.error(`npm test needs ${names} and installing them failed: run \`${hint}\` and read its error`);
  process.exit(1);
}
const still = missing.filter(([cmd]) => !has(cmd)).map(([cmd]) => cmd);
if (still.length) {
  console.error(`npm test needs ${still.join(', ')}: still missing after apt-get install; run \`${hint}\``);
  process.exit(1);
}
