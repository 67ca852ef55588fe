import { describe, expect, it } from '@jest/globals';
import { describeRedisTarget } from '../../../src/store/connect-redis.js';
import { createRedisOutageReporter } from '../../../src/store/create-redis-outage-reporter.js';
import { redactRedisUrl } from '../../../src/store/redact-redis-url.js';
import { captureLogs } from '../../support/capture-logs.js';

describe('createRedisOutageReporter', () => {
  it('writes one line when Redis goes, one per 30 s while it stays gone, one when it is back', () => {
    const logs = captureLogs('info');
    let t = 0;
    const r = createRedisOutageReporter({ log: logs.log, address: 'redis://:***@10.0.0.5:6379', now: () => t });
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:6379\n    at TCPConnectWrap.afterConnect');
    expect(r.down()).toBe(false);
    // Five clients, each retrying every 200 ms, for 65 s.
    for (t = 0; t <= 65_000; t += 200) for (let c = 0; c < 5; c++) r.error(refused);
    expect(r.down()).toBe(true);
    expect(logs.messages).toEqual([
      'Redis unreachable at redis://:***@10.0.0.5:6379: connect ECONNREFUSED 10.0.0.5:6379 (retrying in the background; /readyz answers 503 until it is back)',
      'Redis unreachable at redis://:***@10.0.0.5:6379 for 30 s: connect ECONNREFUSED 10.0.0.5:6379 (still retrying)',
      'Redis unreachable at redis://:***@10.0.0.5:6379 for 60 s: connect ECONNREFUSED 10.0.0.5:6379 (still retrying)',
    ]);
    expect(logs.lines.join('\n')).not.toContain('TCPConnectWrap');
    r.ready();
    r.ready();
    expect(r.down()).toBe(false);
    expect(logs.messages.slice(3)).toEqual(['Redis reachable again at redis://:***@10.0.0.5:6379 after 65 s']);
  });
});

describe('redactRedisUrl', () => {
  it('hides the password, keeps user, host, port and database', () => {
    expect(redactRedisUrl('redis://:s3cret@redis.internal:6380/2')).toBe('redis://:***@redis.internal:6380/2');
    expect(redactRedisUrl('rediss://bot:s3cret@redis.internal:6380')).toBe('rediss://bot:***@redis.internal:6380');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('never echoes something that does not parse', () => {
    expect(redactRedisUrl('not a url s3cret')).toBe('(REDIS_URL, unparsable)');
  });
});

describe('describeRedisTarget', () => {
  it('names a Sentinel or Cluster topology by its addresses, never with a password', () => {
    const auth = { username: 'bot', password: 's3cret', sentinelPassword: 'sp' };
    expect(
      describeRedisTarget({
        url: 'redis://:pw@ignored:1',
        clusterNodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
        ],
        ...auth,
      }),
    ).toBe('redis cluster via 10.0.0.1:7000,10.0.0.2:7001');
    expect(
      describeRedisTarget({
        url: 'redis://:pw@ignored:1',
        sentinels: [{ host: 's1', port: 26379 }],
        sentinelMaster: 'mymaster',
        ...auth,
      }),
    ).toBe('sentinel master "mymaster" via s1:26379');
    expect(describeRedisTarget({ url: 'redis://:pw@r:6379', ...auth })).not.toContain('pw');
  });
});
