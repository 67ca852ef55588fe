import { describe, expect, it } from '@jest/globals';
import { ageMinutes, formatAge } from '../../../src/diagnose/facts/age.js';
import { findCondition } from '../../../src/diagnose/facts/find-condition.js';
import { findEtcdLeaderState } from '../../../src/diagnose/facts/find-etcd-leader-state.js';
import { parseRemediationFor } from '../../../src/diagnose/facts/parse-remediation-for.js';
import { NOW, QFHP2_ID, SBV4F_ID, machine, s0Snapshot } from '../../support/build-snapshot.js';

describe('ageMinutes / formatAge', () => {
  it.each([
    ['2023-11-30T16:00:00Z', 60],
    ['2023-11-30T18:00:00Z', 0], // clock skew: future → 0, never negative
    ['not a time', undefined],
    [undefined, undefined],
  ])('ageMinutes(%s) = %s', (iso, want) => expect(ageMinutes(iso, new Date(NOW))).toBe(want));
  it.each([
    [14_000, '14s'],
    [310_000, '5m10s'],
    [42 * 60000, '42m'],
    [185 * 60000, '3h5m'],
    [48 * 3600000, '2d'],
    [-5000, '0s'],
  ])('formatAge(%d) = %s', (ms, want) => expect(formatAge(ms)).toBe(want));
});

describe('findCondition', () => {
  it('reads v1beta1 conditions', () => {
    expect(
      findCondition(machine({ name: 'm', phase: 'Provisioned', createdMinutesAgo: 10 }), 'NodeHealthy'),
    ).toMatchObject({ status: 'False', reason: 'NodeProvisioning' });
  });
  it('reads v1beta2 conditions and falls back to deprecated.v1beta1', () => {
    const m = machine({ name: 'm', v1beta2: true, nodeName: 'n' });
    expect(findCondition(m, 'NodeReady')).toMatchObject({ status: 'True' });
    expect(findCondition(m, 'NodeHealthy')).toMatchObject({ status: 'True' });
  });
  it('is undefined for a missing status or malformed list', () => {
    expect(findCondition(machine({ name: 'm', noStatus: true }), 'Ready')).toBeUndefined();
    expect(findCondition({ metadata: { name: 'x' }, status: { conditions: 'oops' } }, 'Ready')).toBeUndefined();
  });
});

describe('parseRemediationFor', () => {
  const ann = (v: string) =>
    machine({ name: 'm', annotations: { 'controlplane.cluster.x-k8s.io/remediation-for': v } });
  it('parses the seed S0 annotation', () => {
    expect(
      parseRemediationFor(ann('{"machine":"a","timestamp":"2023-11-30T14:39:33Z","retryCount":819}')),
    ).toMatchObject({ machine: 'a', retryCount: 819 });
  });
  it('does not throw on malformed JSON', () => {
    expect(parseRemediationFor(ann('{"machine":'))).toEqual({ raw: '{"machine":' });
    expect(parseRemediationFor(machine({ name: 'm' }))).toBeUndefined();
  });
});

describe('findEtcdLeaderState', () => {
  it('seed S0: leader followed but absent and unhealthy; target is the reachable member, ids exact', () => {
    const s = findEtcdLeaderState(s0Snapshot())!;
    expect(s.leaderId).toBe(SBV4F_ID);
    expect(s.leaderUnreachableReasons.join('\n')).toMatch(/absent from endpoint status/);
    expect(s.moveTarget?.id).toBe(QFHP2_ID);
    expect(s.followersByLeader.get(SBV4F_ID)).toEqual(['it-tkg-mgmt-rg44c-qfhp2']);
  });
});
