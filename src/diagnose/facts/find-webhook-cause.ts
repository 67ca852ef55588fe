import type { Snapshot } from '../../cluster/snapshot.js';
import { fingerprint } from '../fingerprint.js';
import { findBlockingWebhooks, type BlockingWebhook } from './find-blocking-webhooks.js';

/** The third-party webhook(s) a CNI/recreation symptom is blamed on, in words and fingerprints. */
export interface WebhookCause {
  webhooks: BlockingWebhook[];
  /** e.g. "ValidatingWebhookConfiguration kyverno-… (service kyverno/kyverno-svc, 0 ready endpoints) refuses pods" */
  text: string;
  /** webhook.unavailable-blocking fingerprints, root cause first. */
  causedBy: string[];
}

/**
 * Seed 003 cause chain: the non-system webhooks that webhook.unavailable-blocking reports (refusing
 * pods, or failing closed on pods with a dead service), those with recorded refusals first.
 */
export function findWebhookCause(snapshot: Snapshot): WebhookCause | undefined {
  const blocking = findBlockingWebhooks(snapshot).filter(
    (w) =>
      !w.system &&
      (w.refusals.length + w.denials.length > 0 || (w.serviceDown && w.failClosed.some((h) => h.coversPods))),
  );
  if (!blocking.length) return undefined;
  blocking.sort(
    (a, b) =>
      b.refusals.length + b.denials.length - (a.refusals.length + a.denials.length) || a.name.localeCompare(b.name),
  );
  const text = blocking
    .map((w) => {
      const dead = w.services.filter((s) => s.down).map((s) => s.detail.replace(/^Service /, ''));
      const how =
        w.refusals.length || w.denials.length
          ? w.denials.length && !w.refusals.length
            ? 'denies pods'
            : 'refuses pods ("failed calling webhook")'
          : 'fails closed on pods';
      return `${w.kind} ${w.name}${dead.length ? ` (service ${dead.join('; ')})` : ''} ${how}`;
    })
    .join('; ');
  return {
    webhooks: blocking,
    text,
    causedBy: blocking.map((w) =>
      fingerprint(snapshot.cluster, 'webhook.unavailable-blocking', { kind: w.kind, name: w.name }),
    ),
  };
}
