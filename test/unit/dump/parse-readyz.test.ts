import { describe, expect, it } from '@jest/globals';
import { parseReadyz } from '../../../src/cluster/parse/parse-readyz.js';

describe('parseReadyz', () => {
  it('reads a passing /readyz?verbose body', () => {
    const body = '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]informer-sync ok\nreadyz check passed\n';
    expect(parseReadyz(body, 200)).toStrictEqual({
      reachable: true,
      ready: true,
      checks: [
        { name: 'ping', ok: true },
        { name: 'log', ok: true },
        { name: 'etcd', ok: true },
        { name: 'etcd-readiness', ok: true },
        { name: 'informer-sync', ok: true },
      ],
    });
  });

  it('reads a failing body: etcd check failed with the reason withheld (etcd lost its leader)', () => {
    const body =
      '[+]ping ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n';
    expect(parseReadyz(body, 500)).toStrictEqual({
      reachable: true,
      ready: false,
      checks: [
        { name: 'ping', ok: true },
        { name: 'etcd', ok: false, message: 'reason withheld' },
        { name: 'etcd-readiness', ok: false, message: 'reason withheld' },
        { name: 'shutdown', ok: true },
      ],
      error: 'readyz failed: etcd, etcd-readiness',
    });
  });

  it('uses the HTTP status when the verdict line is missing, and a JSON Status message as error', () => {
    expect(parseReadyz('[+]ping ok\n', 200)).toMatchObject({ ready: true, checks: [{ name: 'ping', ok: true }] });
    const status =
      '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: no leader","code":500}';
    expect(parseReadyz(status, 500)).toStrictEqual({
      reachable: true,
      ready: false,
      checks: [],
      error: 'etcdserver: no leader',
    });
  });

  it('accepts the non-verbose "ok" body and CRLF line ends', () => {
    expect(parseReadyz('ok', 200)).toStrictEqual({ reachable: true, ready: true, checks: [] });
    expect(parseReadyz('[-]etcd failed: reason withheld\r\nreadyz check failed\r\n').checks).toStrictEqual([
      { name: 'etcd', ok: false, message: 'reason withheld' },
    ]);
  });
});
