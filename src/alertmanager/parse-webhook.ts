import type { AlertmanagerAlert, AlertmanagerNotification } from './webhook-payload.js';
import { AlertmanagerInputError } from './alertmanager-input-error.js';

/** The one payload version the bot reads (Alertmanager 0.x sends "4"). */
export const WEBHOOK_VERSION = '4';

/**
 * Read a webhook body: JSON, `version: "4"`, the fields the bot relies on with their types. Anything
 * else is an {@link AlertmanagerInputError} naming what is wrong, in one line. Alerts beyond `maxAlerts`
 * are counted in `overflow`, not kept. Pure.
 */
export function parseWebhook(body: string, opts: { maxAlerts: number; receivedAt: string }): AlertmanagerNotification {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new AlertmanagerInputError('malformed', 'body is not JSON: send Alertmanager webhook payload version 4');
  }
  if (!isRecord(raw))
    throw new AlertmanagerInputError(
      'malformed',
      'body is not a JSON object: send Alertmanager webhook payload version 4',
    );
  if (raw.version !== WEBHOOK_VERSION) {
    throw new AlertmanagerInputError(
      'version',
      `payload version ${typeof raw.version === 'string' ? `"${raw.version.replace(/[^\w.-]/g, '?').slice(0, 10)}"` : typeof raw.version} is not supported: this endpoint reads Alertmanager webhook payload version "4"`,
    );
  }
  if (!Array.isArray(raw.alerts)) throw new AlertmanagerInputError('malformed', '"alerts" must be an array');
  const taken = raw.alerts.slice(0, opts.maxAlerts).map((a, i) => parseAlert(a, i));
  return {
    groupKey: str(raw.groupKey, 'groupKey'),
    receiver: optStr(raw.receiver, 'receiver'),
    status: status(raw.status, 'status'),
    groupLabels: labels(raw.groupLabels, 'groupLabels'),
    commonLabels: labels(raw.commonLabels, 'commonLabels'),
    externalURL: optStr(raw.externalURL, 'externalURL'),
    alerts: taken,
    overflow: Math.max(0, raw.alerts.length - opts.maxAlerts),
    truncatedAlerts:
      typeof raw.truncatedAlerts === 'number' && Number.isInteger(raw.truncatedAlerts) && raw.truncatedAlerts > 0
        ? raw.truncatedAlerts
        : 0,
    receivedAt: opts.receivedAt,
  };
}

function parseAlert(a: unknown, i: number): AlertmanagerAlert {
  const at = `alerts[${i}]`;
  if (!isRecord(a)) throw new AlertmanagerInputError('malformed', `${at} must be an object`);
  const alert: AlertmanagerAlert = {
    status: status(a.status, `${at}.status`),
    labels: labels(a.labels, `${at}.labels`),
    annotations: labels(a.annotations, `${at}.annotations`),
    startsAt: time(a.startsAt, `${at}.startsAt`),
    endsAt: optStr(a.endsAt, `${at}.endsAt`),
    generatorURL: optStr(a.generatorURL, `${at}.generatorURL`),
    fingerprint: str(a.fingerprint, `${at}.fingerprint`),
  };
  if (!/^[0-9a-f]{1,32}$/i.test(alert.fingerprint))
    throw new AlertmanagerInputError('malformed', `${at}.fingerprint must be Alertmanager's hex fingerprint`);
  return alert;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, at: string): string {
  if (typeof v !== 'string' || v === '')
    throw new AlertmanagerInputError('malformed', `"${at}" must be a non-empty string`);
  return v;
}

function optStr(v: unknown, at: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new AlertmanagerInputError('malformed', `"${at}" must be a string`);
  return v;
}

function status(v: unknown, at: string): 'firing' | 'resolved' {
  if (v !== 'firing' && v !== 'resolved')
    throw new AlertmanagerInputError('malformed', `"${at}" must be "firing" or "resolved"`);
  return v;
}

function time(v: unknown, at: string): string {
  const s = str(v, at);
  if (Number.isNaN(Date.parse(s))) throw new AlertmanagerInputError('malformed', `"${at}" must be an RFC 3339 time`);
  return s;
}

function labels(v: unknown, at: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isRecord(v)) throw new AlertmanagerInputError('malformed', `"${at}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') throw new AlertmanagerInputError('malformed', `"${at}" must be an object of strings`);
    out[k] = val;
  }
  return out;
}
