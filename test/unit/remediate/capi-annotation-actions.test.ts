import { describe, expect, it } from '@jest/globals';
import { findAction } from '../../../src/approvals/actions/index.js';
import {
  addAnnotationCall,
  annotationPointer,
  removeAnnotationCall,
} from '../../../src/approvals/actions/capi-object.js';
import { pinnedUid } from '../../../src/approvals/actions/pin-object.js';

const SKIPS = ['machine.skip-drain', 'machine.skip-volume-detach', 'mhc.pause-remediation'] as const;
const UNDOS = ['machine.wait-for-drain', 'machine.wait-for-volume-detach', 'mhc.resume-remediation'] as const;

describe('Cluster API annotation actions (offline: params, plans, patches)', () => {
  it.each(SKIPS)(
    '%s: a plan without a live cluster shows the pinned json-patch and its preconditions, and cannot run (no uid recorded)',
    async (id) => {
      const plan = await findAction(id).plan('prod', { namespace: 'clusters', name: 'md-0-abc' });
      expect(plan.apiCalls[0]).toMatch(
        /^PATCH \/apis\/cluster\.x-k8s\.io\/<served version>\/namespaces\/clusters\/(machines|machinehealthchecks)\/md-0-abc \(json-patch: test metadata\.uid <recorded at proposal> and the resourceVersion read right before, then add annotation /,
      );
      expect(plan.preconditions.map((p) => p.id).slice(0, 2)).toEqual(['same-object', 'not-annotated']);
      expect(plan.preconditions[0]!.recorded).toBeUndefined();
      expect(() => pinnedUid(plan, 'the target')).toThrow(
        'the plan recorded no uid for the target: propose it again against the live cluster',
      );
      expect(plan.label.length).toBeLessThanOrEqual(75);
      expect(plan.risk.length).toBeGreaterThan(40);
      expect(findAction(id).rbac).toEqual([
        {
          group: 'cluster.x-k8s.io',
          resource: id.startsWith('mhc.') ? 'machinehealthchecks' : 'machines',
          verbs: ['get', 'patch'],
        },
        // The target must be of the cluster the fix was proposed for: the namespace's Clusters are listed.
        { group: 'cluster.x-k8s.io', resource: 'clusters', verbs: ['list'] },
      ]);
    },
  );

  it.each(UNDOS)('%s needs the exact value its write recorded, and records it as a precondition', async (id) => {
    await expect(findAction(id).plan('prod', { namespace: 'clusters', name: 'md-0-abc' })).rejects.toThrow(
      'an undo needs the annotation value its write recorded (param value)',
    );
    const plan = await findAction(id).plan('prod', {
      namespace: 'clusters',
      name: 'md-0-abc',
      value: 'k8s-health-bot 2025-03-04T10:44:00.000Z request r1',
    });
    expect(plan.preconditions.find((p) => p.id === 'annotation-ours')?.recorded).toBe(
      'k8s-health-bot 2025-03-04T10:44:00.000Z request r1',
    );
  });

  it.each([
    [{ namespace: 'clusters', name: 'Bad_Name' }, '"Bad_Name" is not a Machine name'],
    [{ namespace: '../etc', name: 'm' }, '"../etc" is not a namespace'],
    [{ name: 'm' }, '"" is not a namespace'],
  ])('refuses bad params before any call: %j', async (params, message) => {
    await expect(findAction('machine.skip-drain').plan('prod', params)).rejects.toThrow(message);
  });

  it('escapes annotation keys as JSON pointers and pins every write', () => {
    expect(annotationPointer('machine.cluster.x-k8s.io/exclude-node-draining')).toBe(
      '/metadata/annotations/machine.cluster.x-k8s.io~1exclude-node-draining',
    );
    expect(annotationPointer('a~b/c')).toBe('/metadata/annotations/a~0b~1c');
    const read = { metadata: { name: 'm', uid: 'u1', resourceVersion: '42' } };
    expect(addAnnotationCall('/p', read, 'u1', 'k/x', 'v').body).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'u1' },
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'add', path: '/metadata/annotations', value: { 'k/x': 'v' } },
    ]);
    expect(
      addAnnotationCall('/p', { metadata: { ...read.metadata, annotations: {} } }, 'u1', 'k/x', 'v').body,
    ).toContainEqual({ op: 'add', path: '/metadata/annotations/k~1x', value: 'v' });
    expect(removeAnnotationCall('/p', 'u1', 'k/x', 'v').body).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'u1' },
      { op: 'test', path: '/metadata/annotations/k~1x', value: 'v' },
      { op: 'remove', path: '/metadata/annotations/k~1x' },
    ]);
  });
});
