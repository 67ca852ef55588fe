import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The preflight of `npm test`: installs or names the services the tests need. */
const script = path.resolve('scripts/preflight.js');

function runPreflight(pathDirs: string[]) {
  // As root the preflight would install with apt-get: run it as nobody, so it can only name the command.
  const asNobody = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const argv = [...asNobody, 'env', `PATH=${pathDirs.join(':')}`, process.execPath, script];
  return spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
}

describe('npm test preflight', () => {
  it('passes silently when every command is there', () => {
    const r = runPreflight(['/usr/local/bin', '/usr/bin', '/bin']);
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('stops with one line naming the exact install command for what is missing, when it cannot install', () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'k8s-health-preflight-'));
    chmodSync(bin, 0o755); // readable by the unprivileged user it runs as
    symlinkSync('/bin/sh', path.join(bin, 'sh'));
    symlinkSync(
      spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim(),
      path.join(bin, 'redis-server'),
    );
    symlinkSync(
      spawnSync('sh', ['-c', 'command -v redis-sentinel'], { encoding: 'utf8' }).stdout.trim(),
      path.join(bin, 'redis-sentinel'),
    );
    symlinkSync(
      spawnSync('sh', ['-c', 'command -v redis-cli'], { encoding: 'utf8' }).stdout.trim(),
      path.join(bin, 'redis-cli'),
    );
    const r = runPreflight([bin]);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm test needs etcd, etcdctl, kubectl, openssl');
    expect(lines[0]).toContain('apt-get install -y etcd-server etcd-client kubernetes-client openssl');
    expect(lines[0]).not.toContain('redis-server ');
  });
});
