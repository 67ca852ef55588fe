import { describe, expect, it } from '@jest/globals';
import {
  formatEtcdctlErrors,
  isEtcdctlErrorText,
  parseEtcdctlErrors,
} from '../../../src/cluster/parse/parse-etcdctl-errors.js';
import { alarmName, parseAlarmList, parseEndpointHealth } from '../../../src/cluster/parse/parse-etcdctl-json.js';

/**
 * etcdctl's stderr and simple output, with lines quoted from public reports: etcd-io/etcd#9095
 * ("Failed to get the status of endpoint"), #10897 ("is unhealthy: failed to commit proposal", "Error:
 * unhealthy cluster"), #16341 (retry warning, "Error: context deadline exceeded", kubectl exec's exit line).
 */
describe('parseEtcdctlErrors', () => {
  it('endpoint status: the endpoint that was asked and did not answer', () => {
    expect(
      parseEtcdctlErrors(
        'Failed to get the status of endpoint http://192.168.0.83:2379 (context deadline exceeded)\n',
        'endpoint status',
      ),
    ).toEqual([
      { command: 'endpoint status', endpoint: 'http://192.168.0.83:2379', error: 'context deadline exceeded' },
    ]);
  });

  it('endpoint health: unhealthy lines per endpoint, the closing "Error:" line as a command error, healthy lines skipped', () => {
    const text = [
      '192.168.195.130:2379 is healthy: successfully committed proposal: took = 3.189286ms',
      'http://192.168.195.128:2379 is unhealthy: failed to commit proposal: context deadline exceeded',
      'Error: unhealthy cluster',
    ].join('\n');
    expect(parseEtcdctlErrors(text, 'endpoint health')).toEqual([
      { command: 'endpoint health', endpoint: 'http://192.168.195.128:2379', error: 'context deadline exceeded' },
      { command: 'endpoint health', error: 'unhealthy cluster' },
    ]);
  });

  it('member list: the client retry warning names the endpoint and the gRPC desc, duplicates once', () => {
    const warn = (attempt: number) =>
      `{"level":"warn","ts":"2023-07-26T03:59:26.143+0200","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-b1400e47-e7c8-4037-9a76-00e24ef95743/eric-data-distributed-coordinator-ed.eda:2379","attempt":${attempt},"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}`;
    const text = [warn(0), warn(1), 'Error: context deadline exceeded', 'command terminated with exit code 1'].join(
      '\n',
    );
    expect(parseEtcdctlErrors(text, 'member list')).toEqual([
      {
        command: 'member list',
        endpoint: 'eric-data-distributed-coordinator-ed.eda:2379',
        error: 'context deadline exceeded',
      },
      { command: 'member list', error: 'context deadline exceeded' },
    ]);
  });

  it("etcd 3.5+ retry warnings name the client's first endpoint, not the one dialed: no endpoint (openshift/origin#27496)", () => {
    const text = [
      '{"level":"warn","ts":"2022-10-31T14:17:52.205Z","logger":"etcd-client","caller":"v3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"etcd-endpoints://0xc00045e000/10.0.151.23:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}',
      'Failed to get the status of endpoint https://10.0.189.153:2379 (context deadline exceeded)',
    ].join('\n');
    expect(parseEtcdctlErrors(text, 'endpoint status')).toEqual([
      { command: 'endpoint status', error: 'context deadline exceeded' },
      { command: 'endpoint status', endpoint: 'https://10.0.189.153:2379', error: 'context deadline exceeded' },
    ]);
  });

  it("keeps another tool's own line whole, one line, bounded count", () => {
    expect(parseEtcdctlErrors('error while getting member list etcdserver: no leader', 'member list')).toEqual([
      { command: 'member list', error: 'error while getting member list etcdserver: no leader' },
    ]);
    const many = Array.from({ length: 50 }, (_, i) => `Error: failure ${i}`).join('\n');
    expect(parseEtcdctlErrors(many, 'alarm list')).toHaveLength(20);
  });

  it('tells etcdctl error text saved in place of JSON from broken JSON', () => {
    expect(isEtcdctlErrorText('Error: context deadline exceeded\n')).toBe(true);
    expect(isEtcdctlErrorText('{"level":"warn","msg":"retrying of unary invoker failed","error":"x"}\nError: x')).toBe(
      true,
    );
    expect(isEtcdctlErrorText('{"header":{"cluster_id":1},"members":[')).toBe(false);
  });

  it('what dump writes reads back to the same errors', () => {
    const errors = [
      {
        command: 'endpoint status' as const,
        endpoint: 'https://10.0.0.2:2379',
        error: 'unavailable: connect ECONNREFUSED 10.0.0.2:2379',
      },
      { command: 'endpoint status' as const, error: 'no endpoint answered' },
    ];
    expect(parseEtcdctlErrors(formatEtcdctlErrors(errors), 'endpoint status')).toEqual(errors);
    const list = [{ command: 'member list' as const, endpoint: 'https://10.0.0.2:2379', error: 'deadline exceeded' }];
    expect(parseEtcdctlErrors(formatEtcdctlErrors(list), 'member list')).toEqual(list);
  });
});

describe('etcdctl simple output', () => {
  it('endpoint health lines (etcdctl README), µs durations kept as printed', () => {
    expect(
      parseEndpointHealth(
        'http://127.0.0.1:22379 is healthy: successfully committed proposal: took = 903.138µs\nhttp://192.168.3.24:2379 is unhealthy: failed to connect: dial tcp 192.168.3.24:2379: getsockopt: connection refused\nError: unhealthy cluster\n',
      ),
    ).toEqual([
      { endpoint: 'http://127.0.0.1:22379', health: true, took: '903.138µs' },
      {
        endpoint: 'http://192.168.3.24:2379',
        health: false,
        error: 'dial tcp 192.168.3.24:2379: getsockopt: connection refused',
      },
    ]);
    expect(() => parseEndpointHealth('+----+\n| ENDPOINT |')).toThrow(
      /endpoint health: table without ENDPOINT and HEALTH columns/,
    );
    expect(() => parseEndpointHealth('hello world')).toThrow(/endpoint health: not etcdctl output/);
  });

  it('alarm list lines (etcd maintenance guide), the uint64 member id exact', () => {
    expect(parseAlarmList('memberID:13803658152347727308 alarm:NOSPACE\n')).toEqual([
      { memberId: '13803658152347727308', alarm: 'NOSPACE' },
    ]);
    expect(() => parseAlarmList('memberID:99999999999999999999999 alarm:NOSPACE')).toThrow(/alarm list/);
  });

  it('alarm names from etcdctl JSON numbers, etcd3 proto names and enum keys', () => {
    expect([
      alarmName(1),
      alarmName(2),
      alarmName('NOSPACE'),
      alarmName('Corrupt'),
      alarmName('1'),
      alarmName(undefined),
    ]).toEqual(['NOSPACE', 'CORRUPT', 'NOSPACE', 'CORRUPT', 'NOSPACE', 'NONE']);
  });
});
