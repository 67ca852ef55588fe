import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';

/** `-o` is `--output` (the kubectl habit), on the built CLI as a user runs it. */
const cli = (args: string[]) =>
  spawnSync(process.execPath, ['bin/k8s-health.js', ...args], { encoding: 'utf8', timeout: 60000 });

describe('check -o', () => {
  it('-o json prints the JSON report, like --output json', () => {
    const dump = 'examples/scenarios/benign-healthy';
    const short = cli(['check', '-o', 'json', '--from', dump, '--now', '2026-01-01T00:00:00Z']);
    const long = cli(['check', '--output', 'json', '--from', dump, '--now', '2026-01-01T00:00:00Z']);
    expect(short.status).toBe(0);
    const strip = (s: string) => ({ ...JSON.parse(s), generatedAt: 'x' });
    expect(strip(short.stdout)).toEqual(strip(long.stdout));
    expect(JSON.parse(short.stdout).cluster).toBeTruthy();
  });

  it('-o with an unknown format is a usage error (exit 2) with one line', () => {
    const r = cli(['check', '-o', 'yaml', '--from', 'examples/scenarios/benign-healthy']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('yaml');
  });
});
