import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from '../../../src/approvals/canonical-json.js';
import { createPlanSigner, PLAN_SECRET_ENV } from '../../../src/approvals/plan-signer.js';
import { TEST_PLAN_SECRET } from '../../support/plan-secret.js';

describe('createPlanSigner (HMAC-SHA256 with K8S_HEALTH_PLAN_SECRET)', () => {
  it('signs canonical JSON: key order does not matter, any value change does', () => {
    const s = createPlanSigner(TEST_PLAN_SECRET);
    expect(s.ready).toBe(true);
    const a = s.sign('plan', { b: 1, a: { y: [1, 2], x: 'v' } });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(s.sign('plan', { a: { x: 'v', y: [1, 2] }, b: 1 })).toBe(a);
    expect(s.verify('plan', { a: { x: 'v', y: [1, 2] }, b: 1 }, a)).toBe(true);
    expect(s.verify('plan', { a: { x: 'v', y: [2, 1] }, b: 1 }, a)).toBe(false);
    expect(s.verify('plan', { a: { x: 'v', y: [1, 2] }, b: '1' }, a)).toBe(false);
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}');
  });

  it('separates purposes: a vote MAC never verifies as a plan or backup MAC; another secret never verifies', () => {
    const s = createPlanSigner(TEST_PLAN_SECRET);
    const payload = { requestId: 'r_1' };
    const vote = s.sign('vote', payload);
    expect(s.verify('vote', payload, vote)).toBe(true);
    expect(s.verify('plan', payload, vote)).toBe(false);
    expect(s.verify('backup', payload, vote)).toBe(false);
    expect(createPlanSigner(`${TEST_PLAN_SECRET}x`).verify('vote', payload, vote)).toBe(false);
  });

  it('refuses malformed MACs without throwing', () => {
    const s = createPlanSigner(TEST_PLAN_SECRET);
    for (const bad of [
      undefined,
      null,
      42,
      '',
      'zz',
      'a'.repeat(63),
      'A'.repeat(64),
      `${'0'.repeat(64)} `,
      { toString: () => '0'.repeat(64) },
    ]) {
      expect(s.verify('plan', {}, bad)).toBe(false);
    }
  });

  it('without a usable secret it is not ready: one line naming the variable, and every sign/verify throws it', () => {
    for (const [secret, why] of [
      [undefined, 'is not set'],
      ['', 'is not set'],
      ['x'.repeat(31), 'shorter than 32 bytes'],
    ] as const) {
      const s = createPlanSigner(secret);
      expect(s.ready).toBe(false);
      expect(s.problem).toContain(PLAN_SECRET_ENV);
      expect(s.problem).toContain(why);
      expect(s.problem!.split('\n')).toHaveLength(1);
      expect(() => s.sign('plan', {})).toThrow(s.problem);
      expect(() => s.verify('plan', {}, '0'.repeat(64))).toThrow(s.problem);
    }
    // 32 bytes counted as UTF-8: 11 three-byte characters are enough.
    expect(createPlanSigner('€'.repeat(11)).ready).toBe(true);
  });

  it('never exposes the secret on the signer object', () => {
    const s = createPlanSigner(TEST_PLAN_SECRET);
    expect(JSON.stringify(s)).not.toContain(TEST_PLAN_SECRET);
    expect(Object.values(s).map(String).join(' ')).not.toContain(TEST_PLAN_SECRET);
  });
});
