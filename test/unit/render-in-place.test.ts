import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/diagnose/finding.js';
import type { Incident } from '../../src/alerts/incident.js';
import type { InPlaceChange } from '../../src/store/in-place-store.js';
import { findBackendDown } from '../../src/slack/render/find-backend-down.js';
import { renderAlertParent, renderAlertReply } from '../../src/slack/render/render-alert.js';
import { PROPOSE_FIX_ACTION_PATTERN } from '../../src/slack/action-ids.js';

const webhook = {
  id: 'webhook.unavailable-blocking',
  section: 'webhooks',
  severity: 'critical',
  title: 'Webhook kyverno-cfg refuses pods',
  subject: { kind: 'ValidatingWebhookConfiguration', name: 'kyverno-cfg' },
  evidence: [],
  causedBy: [],
  remediations: [],
  fingerprint: 'fp1',
} as unknown as Finding;
const pods = {
  ...webhook,
  id: 'workload.pods-unhealthy',
  severity: 'warning',
  title: 'Pods of kyverno/kyverno-admission-controller crash',
  subject: { kind: 'Deployment', namespace: 'kyverno', name: 'kyverno-admission-controller' },
  fingerprint: 'fp2',
} as unknown as Finding;

const suspended: InPlaceChange = {
  requestId: 'r_1',
  cluster: 'prod-east',
  action: 'webhook.suspend',
  label: 'Suspend webhook kyverno-cfg',
  at: '2026-11-25T10:05:00Z',
  thread: { channel: 'C1', threadTs: '1700000000.000100' },
  undo: {
    label: 'Restore webhook kyverno-cfg',
    risk: 'kyverno-cfg enforces its policy again: pods it refuses are refused again.',
    proposalId: 'p_undo',
    fixKey: 'k',
  },
  backend: { namespace: 'kyverno', name: 'kyverno-svc' },
};

const resolved: Incident = {
  cluster: 'prod-east',
  fingerprint: 'fp1',
  key: 'fp1.1',
  channel: 'C1',
  status: 'resolved',
  openedAt: '2026-11-25T10:00:00Z',
  lastSeenAt: '2026-11-25T10:04:00Z',
  resolvedAt: '2026-11-25T10:16:00Z',
  missedScans: 2,
  finding: webhook,
  severity: 'critical',
  evidenceSeen: [],
  related: [],
  seq: 2,
  changes: [
    {
      seq: 2,
      kinds: ['resolved'],
      at: '2026-11-25T10:16:00Z',
      details: [{ kind: 'resolved', missedScans: 2, lastSeenAt: '2026-11-25T10:04:00Z', lastedMs: 240_000 }],
    },
  ],
};

describe('reversible fixes still in place', () => {
  it('a backend is down while a current finding names its namespace or service', () => {
    expect(findBackendDown(suspended.backend, { findings: [pods] })).toBe(
      'Pods of kyverno/kyverno-admission-controller crash',
    );
    expect(
      findBackendDown(suspended.backend, { findings: [{ ...pods, severity: 'info' } as Finding] }),
    ).toBeUndefined();
    expect(findBackendDown(undefined, { findings: [pods] })).toBeUndefined();
  });

  it('a resolved incident never resolves silently: the resolution reply says what is still suspended, with the Undo and its whole risk', () => {
    const inPlace = [{ change: suspended, backendDown: 'Pods of kyverno/kyverno-admission-controller crash' }];
    const reply = renderAlertReply(resolved, resolved.changes[0]!, { inPlace });
    const json = JSON.stringify(reply.blocks);
    expect(json).toContain(':warning: *Resolved, but still in place* — undo once the cause is fixed:');
    expect(json).toContain('• *Suspend webhook kyverno-cfg* since <!date^');
    expect(json).toContain(
      'undo risk: kyverno-cfg enforces its policy again: pods it refuses are refused again. *Its backend is still down* (Pods of kyverno/kyverno-admission-controller crash): undoing now blocks again.',
    );
    const undo = undoButtons(reply.blocks)[0]!;
    expect(undo.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
    expect([undo.text.text, undo.value]).toEqual(['Undo: Restore webhook kyverno-cfg', 'p_undo']);
  });

  it('the parent says it in a line, with the Undo first in its row; its whole risk is in the reply', () => {
    const inPlace = [{ change: suspended, backendDown: 'Pods of kyverno/kyverno-admission-controller crash' }];
    const parent = renderAlertParent(resolved, { inPlace });
    const json = JSON.stringify(parent.blocks);
    // The header names the webhook: the line says what was done to it, since when, and that its backend is down.
    expect(json).toMatch(
      /:warning: \*Still in place\* since <!date\^\d+\^[^>]*>: Suspend webhook — \*its backend is still down\*\./,
    );
    expect(json).not.toContain('undo risk');
    const row = parent.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; value: string; text: { text: string } }[];
    };
    expect([row.elements[0]!.text.text, row.elements[0]!.value]).toEqual(['Undo', 'p_undo']);
    expect(row.elements[0]!.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
    expect(row.elements.map((e) => e.text.text)).toEqual(['Undo', 'Export timeline']);
    // Two changes are told apart by their undo's label, each with an action id of its own.
    const paused = {
      ...suspended,
      requestId: 'r_2',
      action: 'mhc.pause-remediation',
      label: 'Pause remediation of ns/mhc',
      undo: { ...suspended.undo, label: 'Resume remediation of ns/mhc', proposalId: 'p_undo2' },
    };
    const two = undoButtons(renderAlertParent(resolved, { inPlace: [...inPlace, { change: paused }] }).blocks);
    expect(two.map((b) => b.text.text)).toEqual([
      'Undo: Restore webhook kyverno-cfg',
      'Undo: Resume remediation of ns/mhc',
    ]);
    expect(new Set(two.map((b) => b.action_id)).size).toBe(2);
    // Without anything in place, nothing is added.
    expect(JSON.stringify(renderAlertParent(resolved).blocks)).not.toContain('still in place');
    expect(JSON.stringify(renderAlertParent(resolved).blocks)).not.toContain('Still in place');
  });
});

/** The Undo buttons of a message (those whose value is an undo proposal). */
function undoButtons(blocks: readonly unknown[]): { action_id: string; value: string; text: { text: string } }[] {
  return (blocks as { type: string; elements?: { action_id: string; value: string; text: { text: string } }[] }[])
    .flatMap((b) => (b.type === 'actions' ? b.elements! : []))
    .filter((e) => e.value?.startsWith('p_undo'));
}
