import type { Analyzer, FindingDraft } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import { findBlockingWebhooks } from '../facts/find-blocking-webhooks.js';
import { describePodTrouble, findPodTrouble } from '../facts/find-pod-trouble.js';
import { findServiceBackends } from '../facts/find-service-backends.js';
import { proposeWebhookFixes } from '../facts/propose-webhook-fixes.js';
import { quoteEvent } from '../facts/quote-event.js';

/**
 * webhook.unavailable-blocking (seed 003): a third-party admission webhook with failurePolicy Fail
 * whose Service is down (scenario 1), or a healthy one denying pods (scenario 2), refusing pods —
 * CNI pods on new nodes first. Critical when refusals/denials are seen; warning when the service is
 * down and it intercepts pod creation but no refusal was recorded yet. System webhooks
 * (crdvalidator.antrea.io, …) are expected and never reported.
 */
export const webhookUnavailableBlockingAnalyzer: Analyzer = analyzeEach(
  'webhook.unavailable-blocking',
  (ctx) => findBlockingWebhooks(ctx.snapshot),
  (w, ctx) => {
    const { snapshot, now } = ctx;
    if (w.system) return undefined;
    const refused = w.refusals.length + w.denials.length > 0;
    const coversPods = w.failClosed.some((h) => h.coversPods);
    if (!refused && !(w.serviceDown && coversPods)) return undefined;
    const evidence: string[] = [];
    for (const h of w.failClosed) {
      evidence.push(
        `${w.kind} ${w.name}: webhook ${h.name} failurePolicy=${h.failurePolicy}, ${h.service ? `service ${h.service.namespace}/${h.service.name}${h.service.port ? `:${h.service.port}` : ''}` : `url ${h.url ?? '<none>'}`}${h.coversPods ? ', intercepts pod CREATE' : ''}`,
      );
    }
    for (const s of w.services) evidence.push(s.detail);
    // Why the service is down, when its pods show it: a backend Running in CrashLoopBackOff (defect class 10).
    const broken = w.services.flatMap((s) =>
      findServiceBackends(snapshot, s).flatMap((pod) => {
        const trouble = findPodTrouble(pod);
        return trouble ? [{ pod, trouble }] : [];
      }),
    );
    for (const b of broken.slice(0, 3))
      evidence.push(
        `backend pod ${describePodTrouble(b.pod, b.trouble)}${b.pod.phase ? `, phase ${b.pod.phase}` : ''}`,
      );
    const brokenWhy = [...new Set(broken.map((b) => b.trouble.reason))].join('/');
    const events = [...w.refusals, ...w.denials].sort((a, b) =>
      (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''),
    );
    for (const e of events.slice(0, 4)) evidence.push(quoteEvent(e, now));
    const refusedCount = events.reduce((n, e) => n + e.count, 0);
    const dead = w.services.filter((s) => s.down);
    const what = dead.length
      ? `service ${dead.map((s) => `${s.namespace}/${s.name}`).join(', ')} has no ready endpoints${broken.length ? ` (${broken.length === 1 ? 'its pod is' : 'its pods are'} in ${brokenWhy})` : ''}`
      : w.denials.length
        ? 'its service is up but denies the requests'
        : 'the API server cannot call it';
    const title = refused
      ? `Webhook ${w.name} refuses pods (${refusedCount} refusal${refusedCount === 1 ? '' : 's'}): ${what}`
      : `Webhook ${w.name} fails closed and ${what}: new pods will be refused`;
    const since = events
      .map((e) => e.firstTimestamp)
      .filter((t): t is string => !!t)
      .sort()[0];
    const draft: FindingDraft = {
      id: 'webhook.unavailable-blocking',
      severity: refused ? 'critical' : 'warning',
      section: 'webhooks',
      title,
      subject: { kind: w.kind, name: w.name },
      evidence,
      cause:
        `${w.kind} ${w.name} has failurePolicy Fail and ${what}, so the API server ` +
        `${refused ? 'refuses' : 'will refuse'} every matching request — including CNI (antrea/calico) pods on new nodes, which then never become Ready and get recreated.`,
      remediations: proposeWebhookFixes(snapshot, w),
    };
    if (since) draft.since = since;
    // Refusals were seen but the service's state was not: say so rather than guess it is down or up.
    const unseen = w.services.filter((s) => !s.down && s.readyEndpoints === undefined);
    if (unseen.length) draft.missing = unseen.map((s) => `${s.detail}: whether its backends are down is not known`);
    return draft;
  },
);
