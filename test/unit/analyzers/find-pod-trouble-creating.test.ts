import { describe, expect, it } from '@jest/globals';
import type { PodProjection } from '../../../src/cluster/snapshot.js';
import {
  describePodTrouble,
  findPodTrouble,
  STUCK_CREATING_MINUTES,
} from '../../../src/diagnose/facts/find-pod-trouble.js';
import { ago, NOW } from '../../support/build-snapshot.js';
import { event, pod } from '../../support/snapshot-b.js';

/** A pod bound to node w1 at `boundMin` minutes before NOW, its container waiting in ContainerCreating. */
const creating = (boundMin: number, o: Partial<PodProjection> = {}): PodProjection =>
  pod('apps', 'web-1', {
    uid: 'uid-web-1',
    phase: 'Pending',
    nodeName: 'w1',
    conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: ago(boundMin) }],
    containers: [{ name: 'web', ready: false, restartCount: 0, waiting: { reason: 'ContainerCreating' } }],
    ...o,
  });
const mountFailed = (count: number, message: string, lastMin = 1) =>
  event({
    reason: 'FailedMount',
    message,
    count,
    lastTimestamp: ago(lastMin),
    involvedObject: { kind: 'Pod', namespace: 'apps', name: 'web-1', uid: 'uid-web-1' },
  });

describe('a pod stuck creating its containers', () => {
  it(`bound more than ${STUCK_CREATING_MINUTES} minutes ago and still ContainerCreating: stuck, with since when`, () => {
    const t = findPodTrouble(creating(STUCK_CREATING_MINUTES + 5), { at: NOW, events: [] });
    expect(t).toEqual({
      reason: 'ContainerCreating',
      container: 'web',
      restarts: 0,
      since: ago(STUCK_CREATING_MINUTES + 5),
    });
  });

  it('the kubelet warning that says why: the most repeated one, whatever the age', () => {
    const p = creating(2);
    const t = findPodTrouble(p, {
      at: NOW,
      events: [
        mountFailed(3, 'Unable to attach or mount volumes: timed out waiting for the condition', 0),
        mountFailed(9, 'MountVolume.SetUp failed for volume "data" : secret "db-creds" not found'),
      ],
    });
    expect(t?.message).toBe('FailedMount x9: MountVolume.SetUp failed for volume "data" : secret "db-creds" not found');
    expect(describePodTrouble(p, t!)).toBe(
      `apps/web-1: container web ContainerCreating since ${ago(2)} (FailedMount x9: MountVolume.SetUp failed for volume "data" : secret "db-creds" not found)`,
    );
  });

  it('quiet: a pod just bound without warnings, a capture of unknown time without warnings, warnings about another pod, and callers that pass no context', () => {
    expect(findPodTrouble(creating(2), { at: NOW, events: [] })).toBeUndefined();
    expect(findPodTrouble(creating(120), { at: '', events: [] })).toBeUndefined();
    const other = event({
      reason: 'FailedMount',
      message: 'x',
      involvedObject: { kind: 'Pod', namespace: 'apps', name: 'web-2' },
    });
    expect(findPodTrouble(creating(2), { at: NOW, events: [other] })).toBeUndefined();
    expect(findPodTrouble(creating(120))).toBeUndefined();
  });

  it('not stuck creating: a pod not yet bound, a Running pod, a pod being deleted', () => {
    expect(findPodTrouble(creating(120, { nodeName: undefined }), { at: NOW, events: [] })).toBeUndefined();
    expect(findPodTrouble(creating(120, { phase: 'Running' }), { at: NOW, events: [] })).toBeUndefined();
    expect(findPodTrouble(creating(120, { deletionTimestamp: ago(1) }), { at: NOW, events: [] })).toBeUndefined();
  });
});
