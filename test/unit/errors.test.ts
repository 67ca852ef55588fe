import { describe, expect, it } from '@jest/globals';
import { UsageError } from '../../src/cli/usage-error.js';
import { DumpError } from '../../src/cluster/dump/dump-error.js';
import { KubeError, toStatusError } from '../../src/cluster/live/kube-error.js';
import { ConfigError } from '../../src/config/config-error.js';
import { describeError } from '../../src/errors/describe-error.js';
import { isK8sHealthError, K8sHealthError } from '../../src/errors/k8s-health-error.js';
import { QueuedScanTimeoutError } from '../../src/jobs/create-queued-scan.js';
import { RemediateError } from '../../src/approvals/remediate-error.js';
import { KubeCallError } from '../../src/approvals/execute/send-kube.js';
import { SlackStartupError } from '../../src/slack/receive/slack-startup-error.js';
import { AlertLockTimeoutError } from '../../src/alerts/alert-lock.js';

/** One error type: every error class of the bot is a K8sHealthError with a stable code, its message and its cause. */
describe('K8sHealthError and its subclasses', () => {
  const cause = new Error('the original');
  const cases: [K8sHealthError, string, string][] = [
    [new ConfigError('config.yaml: clusters[0].name: required', { cause }), 'ConfigError', 'E_CONFIG'],
    [new DumpError('cannot read dump /x: ENOENT', { cause }), 'DumpError', 'E_DUMP'],
    [
      new KubeError('E_KUBE_FORBIDDEN', 'cannot list nodes: forbidden', 403, { cause }),
      'KubeError',
      'E_KUBE_FORBIDDEN',
    ],
    [new RemediateError('E_REMEDIATE_ETCD', 'no etcd leader', { cause }), 'RemediateError', 'E_REMEDIATE_ETCD'],
    [new KubeCallError('cannot PATCH x: conflict', 409, { cause }), 'RemediateError', 'E_REMEDIATE_KUBE'],
    [new UsageError('--output must be text, json or blocks', { cause }), 'UsageError', 'E_USAGE'],
    [
      new SlackStartupError('E_SLACK_AUTH', 'Slack rejected SLACK_BOT_TOKEN', { cause }),
      'SlackStartupError',
      'E_SLACK_AUTH',
    ],
    [new QueuedScanTimeoutError('no worker finished the scan', { cause }), 'QueuedScanTimeoutError', 'E_SCAN_TIMEOUT'],
    [new AlertLockTimeoutError('alert thread locked', { cause }), 'AlertLockTimeoutError', 'E_ALERT_LOCK_TIMEOUT'],
  ];
  it.each(cases)(
    '%s is a K8sHealthError with name %s and code %s, keeping its message and cause',
    (err, name, code) => {
      expect(err).toBeInstanceOf(K8sHealthError);
      expect(err).toBeInstanceOf(Error);
      expect(isK8sHealthError(err)).toBe(true);
      expect(err.name).toBe(name);
      expect(err.code).toBe(code);
      expect(err.cause).toBe(cause);
      expect(describeError(err)).toBe(err.message);
    },
  );

  it('a translated API answer is a KubeError (the boundary translation)', () => {
    const e = toStatusError(403, '{"message":"nodes is forbidden"}', 'list nodes');
    expect(isK8sHealthError(e)).toBe(true);
    expect(e).toMatchObject({
      code: 'E_KUBE_FORBIDDEN',
      status: 403,
      message: 'cannot list nodes: forbidden (nodes is forbidden)',
    });
  });
});

describe('describeError', () => {
  it('is the message of an Error, its name when the message is empty, and the string of anything else', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(new TypeError(''))).toBe('TypeError');
    expect(describeError('plain')).toBe('plain');
    expect(describeError(42)).toBe('42');
    expect(describeError(undefined)).toBe('undefined');
    expect(isK8sHealthError(new Error('x'))).toBe(false);
  });
});
