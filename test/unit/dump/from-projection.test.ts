import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { eventFromProjection } from '../../../src/cluster/dump/event-from-projection.js';
import { podFromProjection } from '../../../src/cluster/dump/pod-from-projection.js';
import { projectEvent } from '../../../src/cluster/project-event.js';
import { projectPod } from '../../../src/cluster/project-pod.js';
import type { EventProjection, PodProjection } from '../../../src/cluster/snapshot.js';
import { useFuzzSeed } from '../../support/fuzz-seed.js';

useFuzzSeed();

// The projectors drop empty strings, so projections never hold them.
const str = fc.string({ minLength: 1, maxLength: 12 });
/** A record whose keys outside `required` may be absent (never present-but-undefined, like the projectors). */
const opt = <T>(model: { [K in keyof T]-?: fc.Arbitrary<T[K]> }, required: (keyof T)[] = []): fc.Arbitrary<T> =>
  fc.record(model as Record<string, fc.Arbitrary<unknown>>, {
    requiredKeys: required as never[],
    noNullPrototype: true,
  }) as unknown as fc.Arbitrary<T>;

const podArb: fc.Arbitrary<PodProjection> = opt<PodProjection>(
  {
    namespace: str,
    name: str,
    uid: str,
    nodeName: str,
    phase: str,
    reason: str,
    message: str,
    creationTimestamp: str,
    deletionTimestamp: str,
    deletionGracePeriodSeconds: fc.nat(),
    labels: fc.dictionary(str, fc.string(), { minKeys: 1, maxKeys: 3, noNullPrototype: true }),
    ownerReferences: fc.array(
      opt({ apiVersion: str, kind: str, name: str, uid: str, controller: fc.boolean() }, ['kind', 'name']),
      { minLength: 1, maxLength: 2 },
    ),
    pvcNames: fc.array(str, { maxLength: 3 }),
    conditions: fc.array(
      opt({ type: str, status: str, reason: fc.string(), message: fc.string(), lastTransitionTime: str }, [
        'type',
        'status',
      ]),
      { maxLength: 3 },
    ),
    containers: fc.array(
      opt(
        {
          name: fc.string(),
          ready: fc.boolean(),
          restartCount: fc.nat(),
          waiting: opt({ reason: fc.string(), message: fc.string() }),
          terminated: opt({ reason: fc.string(), exitCode: fc.integer(), finishedAt: fc.string() }),
          lastTerminated: opt({ reason: fc.string(), exitCode: fc.integer(), finishedAt: fc.string() }),
        },
        ['name', 'ready', 'restartCount'],
      ),
      { maxLength: 3 },
    ),
    memoryRequestBytes: fc.oneof(fc.integer({ min: 1 }), fc.double({ min: 1e-6, max: 1e22, noNaN: true })),
    priorityClassName: str,
  },
  ['namespace', 'name', 'pvcNames', 'conditions', 'containers'],
);

const eventArb: fc.Arbitrary<EventProjection> = opt<EventProjection>(
  {
    origin: fc.constantFrom('workload' as const, 'management' as const),
    namespace: str,
    name: str,
    type: str,
    reason: str,
    message: str,
    count: fc.integer({ min: 1, max: 1e6 }),
    firstTimestamp: str,
    lastTimestamp: str,
    involvedObject: opt({ kind: str, namespace: str, name: str, uid: str }),
    source: str,
  },
  ['origin', 'count', 'involvedObject'],
);

describe('projection inverses used by the dump writer', () => {
  it('projectPod(podFromProjection(p)) deep-equals p', () => {
    fc.assert(
      fc.property(podArb, (p) => expect(projectPod(podFromProjection(p))).toStrictEqual(p)),
      { numRuns: 300 },
    );
  });

  it('projectEvent(eventFromProjection(e), e.origin) deep-equals e', () => {
    fc.assert(
      fc.property(eventArb, (e) => expect(projectEvent(eventFromProjection(e), e.origin)).toStrictEqual(e)),
      { numRuns: 300 },
    );
  });
});
