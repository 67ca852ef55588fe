import { describe, expect, it } from '@jest/globals';
import { capiMachineStuckProvisioningAnalyzer } from '../../../src/diagnose/analyzers/capi-machine-stuck-provisioning.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import { buildContext, buildSnapshot, machine, s0Snapshot } from '../../support/build-snapshot.js';

const run = (machines: ReturnType<typeof machine>[]) =>
  capiMachineStuckProvisioningAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machines } })));

describe('capi.machine-stuck-provisioning', () => {
  it('seed S0: warning (the etcd root cause is the critical one), caused by the unreachable etcd leader, quotes machine, annotation, MHC event, orphan VM', () => {
    const [f] = capiMachineStuckProvisioningAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({
      severity: 'warning',
      subject: { kind: 'Machine', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c-vrkvg' },
    });
    expect(f!.title).toBe(
      'Control-plane machine tkg-system/it-tkg-mgmt-rg44c-vrkvg stuck Provisioned for 2h14m (no Node)',
    );
    expect(f!.cause).toMatch(
      /^new control-plane machine cannot join: etcd member it-tkg-mgmt-rg44c-qfhp2 still follows leader it-tkg-mgmt-rg44c-sbv4f \(172\.16\.52\.10\)/,
    );
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'etcd.leader-unreachable', { kind: 'EtcdMember', name: 'it-tkg-mgmt-rg44c-sbv4f' }),
    ]);
    const ev = f!.evidence.join('\n');
    expect(ev).toMatch(/phase=Provisioned, nodeRef=<none>.*NodeHealthy=False reason=NodeProvisioning/);
    expect(ev).toMatch(/Event DetectedUnhealthy x23 over 5m9s \(last 15s ago\) from machinehealthcheck-controller/);
    expect(ev).toMatch(/"retryCount":819/);
    expect(ev).toMatch(/orphan VM/);
  });

  it.each([
    ['Provisioning worker, v1beta1', machine({ name: 'w', phase: 'Provisioning', createdMinutesAgo: 45 })],
    ['Provisioned, v1beta2 shape', machine({ name: 'w', phase: 'Provisioned', createdMinutesAgo: 45, v1beta2: true })],
    ['Pending with infrastructure ready', machine({ name: 'w', phase: 'Pending', createdMinutesAgo: 45 })],
  ])('warning for %s past the threshold', (_n, m) => {
    const [f] = run([m]);
    expect(f).toMatchObject({ severity: 'warning', subject: { name: 'w' } });
  });

  it.each([
    ['provisioning for 5 minutes (benign)', machine({ name: 'w', phase: 'Provisioning', createdMinutesAgo: 5 })],
    [
      'creationTimestamp in the future (clock skew)',
      machine({ name: 'w', phase: 'Provisioning', createdMinutesAgo: -30 }),
    ],
    ['Running with a node', machine({ name: 'w', phase: 'Running', nodeName: 'w', createdMinutesAgo: 500 })],
    ['being deleted', machine({ name: 'w', phase: 'Provisioned', createdMinutesAgo: 500, deletingMinutesAgo: 1 })],
    ['no status at all', machine({ name: 'w', noStatus: true, createdMinutesAgo: 500 })],
  ])('quiet: %s', (_n, m) => expect(run([m])).toEqual([]));
});
