import { describe, expect, it } from '@jest/globals';
import { captureLogs } from '../support/capture-logs.js';

const count = (line: string, key: string) => line.split(`"${key}":`).length - 1;

/**
 * A log line is one JSON object whose keys are unique: a reader (jq, Loki, a SIEM) that meets a key
 * twice keeps one of them, so a line could say one cluster and be filed under another. The scan
 * worker's child logger carries the cluster and the job, and the scan it runs names its cluster in
 * its own fields: written apart, bindings and fields would put `cluster` on that line twice.
 */
describe('log lines carry each key once', () => {
  it("a child bound to a cluster, logging its cluster again: one `cluster` key, the call's value", () => {
    const logs = captureLogs('debug');
    const scan = logs.log.child({ cluster: 'prod-east', job: '7' });
    scan.info({ cluster: 'prod-east', changed: ['capi.drain-blocked#1'] }, 'alerts changed');
    scan.child({ cluster: 'prod-west' }).warn({ cluster: 'prod-west', error: 'x' }, 'app home refresh failed');
    scan.error(new Error('boom'), 'scan failed');
    scan.info('plain message');
    for (const line of logs.lines) expect(count(line, 'cluster')).toBe(1);
    expect(logs.records.map((r) => [r.cluster, r.job, r.msg])).toEqual([
      ['prod-east', '7', 'alerts changed'],
      ['prod-west', '7', 'app home refresh failed'],
      ['prod-east', '7', 'scan failed'],
      ['prod-east', '7', 'plain message'],
    ]);
    expect((logs.records[2]!.err as { message: string }).message).toBe('boom');
  });

  it('secrets are still redacted in bound and called fields', () => {
    const logs = captureLogs('debug');
    logs.log.child({ token: 'xoxb-secret' }).info({ signingSecret: 'shh', cluster: 'c' }, 'x');
    expect(logs.lines.join('\n')).not.toMatch(/xoxb-secret|shh/);
  });
});
