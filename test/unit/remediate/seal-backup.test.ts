import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { createPlanSigner } from '../../../src/approvals/plan-signer.js';
import { openSealedBackup, sealBackup } from '../../../src/approvals/execute/seal-backup.js';
import type { StoredBackup } from '../../../src/store/approval-backups.js';
import { testSigner } from '../../support/plan-secret.js';

const signer = testSigner();
const webhook = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'kyverno', uid: 'uid-k' },
  webhooks: [{ name: 'v.kyverno.svc' }],
} as unknown as KubeObject;
const origin = { requestId: 'r_suspend', action: 'webhook.suspend', params: { kind: 'Validating', name: 'kyverno' } };
const stored = (): StoredBackup => ({
  what: 'ValidatingWebhookConfiguration kyverno',
  object: structuredClone(webhook),
  savedAt: 'x',
  ...sealBackup(signer, 'ValidatingWebhookConfiguration kyverno', webhook, origin),
});

describe('sealed backups', () => {
  it('open only for the request that saved them, unchanged', () => {
    const b = openSealedBackup(signer, 'r_suspend', stored());
    expect(b.object).toEqual(webhook);
    expect(b.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b.origin).toEqual(origin);
  });

  it("refuse, in one line each: no seal, a changed object, a changed origin, another request's slot, another secret", () => {
    const changed = stored();
    (changed.object as unknown as { webhooks: unknown[] }).webhooks.push({ name: 'evil' });
    const cases: [string, StoredBackup, RegExp][] = [
      ['r_suspend', { what: 'x', object: webhook, savedAt: 'x' }, /carries no seal/],
      ['r_suspend', changed, /was changed after it was saved/],
      [
        'r_suspend',
        { ...stored(), origin: { ...origin, params: { kind: 'Mutating', name: 'kyverno' } } },
        /seal that does not verify/,
      ],
      ['r_other', stored(), /was saved by request r_suspend, not by this one/],
    ];
    for (const [id, record, why] of cases) {
      expect(() => openSealedBackup(signer, id, record)).toThrow(why);
    }
    expect(() =>
      openSealedBackup(createPlanSigner('another-secret-another-secret-another'), 'r_suspend', stored()),
    ).toThrow(/does not verify/);
  });
});
