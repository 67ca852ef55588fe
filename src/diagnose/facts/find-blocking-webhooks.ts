import type { EventProjection, KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { isSystemWebhook } from './is-system-webhook.js';
import type { RawWebhook } from './raw-webhook.js';
import { webhookCoversPods } from './webhook-covers-pods.js';
import { isKindRead } from './is-kind-read.js';

export type WebhookConfigKind = 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';

/** One webhook entry of a configuration that fails closed. */
export interface FailClosedHook {
  name: string;
  /** admissionregistration.k8s.io/v1 defaults an absent failurePolicy to Fail. */
  failurePolicy: string;
  service?: { namespace: string; name: string; port?: number };
  url?: string;
  coversPods: boolean;
}

/** What the snapshot says about a webhook's backing Service. */
export interface WebhookServiceState {
  namespace: string;
  name: string;
  port?: number;
  found: boolean;
  readyEndpoints?: number;
  notReadyEndpoints?: number;
  /** No Service, or no ready endpoint: the API server cannot call the webhook. */
  down: boolean;
  /** e.g. "Service kyverno/kyverno-svc: 0 ready endpoints (2 not ready)" */
  detail: string;
}

/** A webhook configuration that blocks (or is refusing) requests. */
export interface BlockingWebhook {
  kind: WebhookConfigKind;
  name: string;
  config: KubeObject;
  /** isSystemWebhook: never suspended, never reported by webhook.unavailable-blocking. */
  system: boolean;
  failClosed: FailClosedHook[];
  services: WebhookServiceState[];
  serviceDown: boolean;
  /** Events "failed calling webhook …" naming one of its webhooks or its service host. */
  refusals: EventProjection[];
  /** Events "admission webhook … denied the request" naming one of its webhooks. */
  denials: EventProjection[];
}

const CALL_FAILED = /failed calling webhook/i;
const DENIED = /denied the request/i;

/**
 * Webhook configurations that block admission (seed 003): failurePolicy Fail with a dead service
 * (no Service / 0 ready endpoints), and/or named in "failed calling webhook" / "denied the request"
 * event messages (matched by webhook name or by the service host `<svc>.<ns>.svc`).
 * System webhooks are returned too, flagged `system`, so callers can explain why they are left alone.
 */
export function findBlockingWebhooks(snapshot: Snapshot): BlockingWebhook[] {
  const out: BlockingWebhook[] = [];
  const candidates = snapshot.events.filter(
    (e) => e.message && (CALL_FAILED.test(e.message) || DENIED.test(e.message)),
  );
  const groups: [WebhookConfigKind, KubeObject[]][] = [
    ['ValidatingWebhookConfiguration', snapshot.validatingWebhooks],
    ['MutatingWebhookConfiguration', snapshot.mutatingWebhooks],
  ];
  for (const [kind, configs] of groups) {
    for (const config of configs) {
      const hooks = (Array.isArray(config.webhooks) ? config.webhooks : []) as (RawWebhook | null)[];
      const failClosed: FailClosedHook[] = [];
      const services = new Map<string, WebhookServiceState>();
      const names: string[] = [];
      const hosts: string[] = [];
      for (const h of hooks) {
        if (!h || typeof h.name !== 'string') continue;
        const svc = h.clientConfig?.service;
        const service =
          svc && typeof svc.name === 'string' && typeof svc.namespace === 'string'
            ? {
                namespace: svc.namespace as string,
                name: svc.name as string,
                ...(typeof svc.port === 'number' ? { port: svc.port as number } : {}),
              }
            : undefined;
        names.push(h.name);
        if (service) hosts.push(`${service.name}.${service.namespace}.svc`);
        const failurePolicy = typeof h.failurePolicy === 'string' ? h.failurePolicy : 'Fail';
        if (failurePolicy !== 'Fail') continue;
        const hook: FailClosedHook = { name: h.name, failurePolicy, coversPods: webhookCoversPods(h) };
        if (service) hook.service = service;
        if (typeof h.clientConfig?.url === 'string') hook.url = h.clientConfig.url;
        failClosed.push(hook);
        if (service) {
          const key = `${service.namespace}/${service.name}`;
          if (!services.has(key)) services.set(key, serviceState(snapshot, service));
        }
      }
      // A message quoting a webhook name belongs to that webhook only (two configurations often share
      // one service, e.g. kyverno's validating and mutating ones); the service host decides otherwise.
      const mentions = candidates.filter((e) => {
        const quoted = quotedWebhookName(e.message as string);
        return quoted ? names.includes(quoted) : hosts.some((h) => (e.message as string).includes(h));
      });
      const refusals = mentions.filter((e) => CALL_FAILED.test(e.message as string));
      const denials = mentions.filter(
        (e) => !CALL_FAILED.test(e.message as string) && DENIED.test(e.message as string),
      );
      const serviceStates = [...services.values()];
      const serviceDown = serviceStates.some((s) => s.down);
      if (!(failClosed.length && serviceDown) && !refusals.length && !denials.length) continue;
      out.push({
        kind,
        name: config.metadata?.name ?? '',
        config,
        system: isSystemWebhook(config),
        failClosed,
        services: serviceStates,
        serviceDown,
        refusals,
        denials,
      });
    }
  }
  return out;
}

function quotedWebhookName(message: string): string | undefined {
  const m = /(?:failed calling webhook|admission webhook) \\?"([^"\\]+)\\?"/i.exec(message);
  return m?.[1];
}

function serviceState(
  snapshot: Snapshot,
  svc: { namespace: string; name: string; port?: number },
): WebhookServiceState {
  const id = `${svc.namespace}/${svc.name}`;
  const base = { namespace: svc.namespace, name: svc.name, ...(svc.port !== undefined ? { port: svc.port } : {}) };
  const partial = (word: string) => snapshot.partial.some((p) => p.source.toLowerCase().includes(word));
  const found = snapshot.services.some((s) => s.metadata?.namespace === svc.namespace && s.metadata?.name === svc.name);
  if (!found) {
    // Only claim "no Service" when services were really read (an empty or failed list proves nothing).
    const known = isKindRead(snapshot, 'Service', snapshot.services) && !partial('service');
    return {
      ...base,
      found: false,
      down: known,
      detail: known ? `Service ${id}: not found` : `Service ${id}: not in snapshot`,
    };
  }
  const ep = snapshot.endpoints.find((e) => e.metadata?.namespace === svc.namespace && e.metadata?.name === svc.name);
  if (!ep) {
    const known = isKindRead(snapshot, 'Endpoints', snapshot.endpoints) && !partial('endpoints');
    return {
      ...base,
      found: true,
      down: known,
      detail: known
        ? `Service ${id}: no Endpoints object (0 ready endpoints)`
        : `Service ${id}: endpoints not in snapshot`,
    };
  }
  let ready = 0;
  let notReady = 0;
  for (const s of Array.isArray(ep.subsets) ? ep.subsets : []) {
    ready += Array.isArray(s?.addresses) ? s.addresses.length : 0;
    notReady += Array.isArray(s?.notReadyAddresses) ? s.notReadyAddresses.length : 0;
  }
  const detail = `Service ${id}: ${ready} ready endpoint${ready === 1 ? '' : 's'}${notReady ? ` (${notReady} not ready)` : ''}`;
  return { ...base, found: true, readyEndpoints: ready, notReadyEndpoints: notReady, down: ready === 0, detail };
}
