/**
 * One item of a webhook configuration's `webhooks` as read from a cluster or a dump: any field may be
 * missing or of another type, so every use checks it first.
 */
export interface RawWebhook {
  name?: unknown;
  failurePolicy?: unknown;
  rules?: unknown;
  namespaceSelector?: unknown;
  objectSelector?: unknown;
  matchConditions?: unknown;
  clientConfig?: { url?: unknown; service?: { namespace?: unknown; name?: unknown; port?: unknown } | null } | null;
}
