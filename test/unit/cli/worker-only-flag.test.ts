import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { parseWorkerKinds } from '../../../src/cli/parse-worker-kinds.js';
import { runCli } from '../../../src/cli/run-cli.js';

/** `worker --only` and `serve --no-cluster-access`: what the command line accepts and how it refuses. */
async function cli(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const status = await runCli(argv, { env: {}, stdout, stderr });
  return { status, stdout: out, stderr: err };
}

describe('parseWorkerKinds (worker --only)', () => {
  it.each([
    ['remediate', ['remediate']],
    ['scan,notify,expiry', ['scan', 'notify', 'expiry']],
    [' expiry , scan ', ['scan', 'expiry']],
    ['scan,scan', ['scan']],
    ['scan,notify,remediate,expiry', ['scan', 'notify', 'remediate', 'expiry']],
    ['alerts', ['alerts']],
  ])('accepts %j', (value, kinds) => {
    expect(parseWorkerKinds(value)).toEqual(kinds);
  });

  it.each([
    ['scans', '--only: unknown worker "scans" (choose from scan, notify, remediate, expiry, alerts, comma-separated)'],
    ['', '--only: unknown worker an empty name (choose from scan, notify, remediate, expiry, alerts, comma-separated)'],
    [
      'scan,',
      '--only: unknown worker an empty name (choose from scan, notify, remediate, expiry, alerts, comma-separated)',
    ],
    [
      'scan,Remediate',
      '--only: unknown worker "Remediate" (choose from scan, notify, remediate, expiry, alerts, comma-separated)',
    ],
  ])('refuses %j naming what is wrong', (value, message) => {
    expect(() => parseWorkerKinds(value)).toThrow(message);
  });
});

describe('the command line', () => {
  it('exits 2 with one line for an unknown --only worker, before reading any config', async () => {
    const r = await cli(['worker', '--only', 'scan,remediation']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'k8s-health: --only: unknown worker "remediation" (choose from scan, notify, remediate, expiry, alerts, comma-separated)\n',
    );
  });

  it('exits 2 when serve --no-cluster-access would still run workers in-process', async () => {
    const r = await cli(['serve', '--no-cluster-access']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'k8s-health: serve: --no-cluster-access needs --no-workers (in-process workers scan and remediate clusters)\n',
    );
  });

  it('documents both flags in --help', async () => {
    // commander wraps help at 80 columns: compare with the wrapping whitespace collapsed.
    const help = (await cli(['worker', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      '--only <workers> run only these workers, comma-separated: scan, notify, remediate, expiry, alerts (default all)',
    );
    expect((await cli(['serve', '--help'])).stdout).toContain('--no-cluster-access');
  });
});
