import { describe, expect, it } from '@jest/globals';
import { fingerprint } from '../../src/diagnose/fingerprint.js';

describe('fingerprint', () => {
  it('is stable for the same cluster, id and subject and differs otherwise', () => {
    const a = fingerprint('prod', 'node.not-ready', { kind: 'Node', name: 'n1' });
    expect(a).toBe(fingerprint('prod', 'node.not-ready', { kind: 'Node', name: 'n1' }));
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(a).not.toBe(fingerprint('prod', 'node.not-ready', { kind: 'Node', name: 'n2' }));
    expect(a).not.toBe(fingerprint('stage', 'node.not-ready', { kind: 'Node', name: 'n1' }));
  });
});
