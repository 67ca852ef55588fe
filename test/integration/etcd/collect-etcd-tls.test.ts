import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/etcd/collect-etcd.js';
import { freePort } from '../../support/free-port.js';
import { signalPid } from '../../support/signal-pid.js';
import { eventually } from '../../support/eventually.js';

/**
 * etcd with TLS and client-certificate auth, as in every kubeadm cluster: the probe must use the CA,
 * client certificate and key named in the config (etcd.caFile/certFile/keyFile). Certificates are made
 * here with openssl; the member is a single real etcd on loopback.
 */
describe('collectEtcd over TLS with client certificates', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-etcd-tls-'));
  const file = (n: string) => path.join(dir, n);
  let child: ChildProcess;
  let endpoint: string;

  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  beforeAll(async () => {
    try {
      execFileSync('openssl', ['version']);
    } catch {
      throw new Error('openssl is not installed: apt-get install -y openssl');
    }
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=test-etcd-ca',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
    );
    writeFileSync(
      file('server.ext'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
    );
    writeFileSync(file('client.ext'), 'extendedKeyUsage=clientAuth\n');
    for (const [name, cn] of [
      ['server', 'etcd-server'],
      ['client', 'k8s-health'],
    ] as const) {
      openssl(
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        `/CN=${cn}`,
        '-keyout',
        file(`${name}.key`),
        '-out',
        file(`${name}.csr`),
      );
      openssl(
        'x509',
        '-req',
        '-in',
        file(`${name}.csr`),
        '-CA',
        file('ca.crt'),
        '-CAkey',
        file('ca.key'),
        '-CAcreateserial',
        '-days',
        '1',
        '-extfile',
        file(`${name}.ext`),
        '-out',
        file(`${name}.crt`),
      );
    }
    const clientPort = await freePort();
    const peerPort = await freePort();
    endpoint = `https://127.0.0.1:${clientPort}`;
    const log = openSync(file('etcd.log'), 'a');
    child = spawn(
      'etcd',
      [
        '--name',
        't1',
        '--data-dir',
        file('data'),
        '--listen-client-urls',
        endpoint,
        '--advertise-client-urls',
        endpoint,
        '--listen-peer-urls',
        `http://127.0.0.1:${peerPort}`,
        '--initial-advertise-peer-urls',
        `http://127.0.0.1:${peerPort}`,
        '--initial-cluster',
        `t1=http://127.0.0.1:${peerPort}`,
        '--cert-file',
        file('server.crt'),
        '--key-file',
        file('server.key'),
        '--client-cert-auth',
        '--trusted-ca-file',
        file('ca.crt'),
        '--logger',
        'zap',
      ],
      { stdio: ['ignore', log, log] },
    );
    closeSync(log);
    child.unref();
  });
  afterAll(() => {
    if (child?.pid) {
      try {
        signalPid(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('with the CA, client certificate and key from the config: the member answers, healthy, one leader', async () => {
    const cfg = {
      endpoints: [endpoint],
      caFile: file('ca.crt'),
      certFile: file('client.crt'),
      keyFile: file('client.key'),
      timeoutMs: 2000,
    };
    const { etcd, partial } = await eventually(
      () => collectEtcd(cfg),
      (r) => r.etcd?.health[0]?.health === true,
    );
    expect(partial).toEqual([]);
    expect(etcd!.members.map((m) => m.name)).toEqual(['t1']);
    expect(etcd!.endpoints[0]!.leader).toBe(etcd!.members[0]!.id);
    expect(etcd!.health).toEqual([expect.objectContaining({ endpoint, health: true })]);
  });

  it('without a client certificate the server refuses: unhealthy and named in partial, nothing throws', async () => {
    const { etcd, partial } = await collectEtcd({ endpoints: [endpoint], caFile: file('ca.crt'), timeoutMs: 1500 });
    expect(etcd?.health[0]?.health ?? false).toBe(false);
    expect(partial.map((p) => p.source)).toContain(`etcd ${endpoint}`);
  });
});
