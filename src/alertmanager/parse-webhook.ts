import type { AlertmanagerAlert, AlertmanagerNotification } from './webhook-payload.js';
import { AlertmanagerInputError } from './alertmanager-input-error.js';

/** The one payload version the bot reads (Alertmanager 0.x sends "4"). */
export const WEBHOOK_VERSION = '4';

const FINGERPRINT = /^[0-9a-f]{1,32}$/i;

/**
 * Read a webhook body: JSON, `version: "4"`, the fields the bot relies on with their types. Anything
 * else is an {@link AlertmanagerInputError} naming what is wrong, in one line. Alerts beyond `maxAlerts`
 * are counted in `overflow`, not kept. Pure.
 *
 * It runs on serve's answer path (`POST /alertmanager` answers within 100 ms under 50 concurrent webhooks,
 * docs/alertmanager.md "Speed"), so it checks the parsed objects where they are rather than copying them: labels and
 * annotations are the parsed objects themselves once every value is known to be a string.
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
  const all = raw.alerts as unknown[];
  const taken = new Array<AlertmanagerAlert>(Math.min(all.length, opts.maxAlerts));
  for (let i = 0; i < taken.length; i++) taken[i] = parseAlert(all[i], i);
  return {
    groupKey: str(raw.groupKey, 'groupKey'),
    receiver: optStr(raw.receiver, 'receiver'),
    status: status(raw.status, 'status'),
    groupLabels: labels(raw.groupLabels, 'groupLabels'),
    commonLabels: labels(raw.commonLabels, 'commonLabels'),
    externalURL: optStr(raw.externalURL, 'externalURL'),
    alerts: taken,
    overflow: Math.max(0, all.length - opts.maxAlerts),
    truncatedAlerts:
      typeof raw.truncatedAlerts === 'number' && Number.isInteger(raw.truncatedAlerts) && raw.truncatedAlerts > 0
        ? raw.truncatedAlerts
        : 0,
    receivedAt: opts.receivedAt,
  };
}

function parseAlert(a: unknown, i: number): AlertmanagerAlert {
  if (!isRecord(a)) throw new AlertmanagerInputError('malformed', `alerts[${i}] must be an object`);
  // Field names are built only for the message of a refusal: the accepted path allocates nothing but the alert.
  const at = (field: string) => `alerts[${i}].${field}`;
  const alert: AlertmanagerAlert = {
    status: a.status === 'firing' || a.status === 'resolved' ? a.status : status(a.status, at('status')),
    labels: isStrings(a.labels) ? a.labels : labels(a.labels, at('labels')),
    annotations: isStrings(a.annotations) ? a.annotations : labels(a.annotations, at('annotations')),
    startsAt: time(a.startsAt, i),
    endsAt: typeof a.endsAt === 'string' ? a.endsAt : optStr(a.endsAt, at('endsAt')),
    generatorURL: typeof a.generatorURL === 'string' ? a.generatorURL : optStr(a.generatorURL, at('generatorURL')),
    fingerprint:
      typeof a.fingerprint === 'string' && a.fingerprint !== '' ? a.fingerprint : str(a.fingerprint, at('fingerprint')),
  };
  if (!FINGERPRINT.test(alert.fingerprint))
    throw new AlertmanagerInputError('malformed', `${at('fingerprint')} must be Alertmanager's hex fingerprint`);
  return alert;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object whose own values are all strings (what JSON.parse made of a label set). */
function isStrings(v: unknown): v is Record<string, string> {
  if (!isRecord(v)) return false;
  for (const k in v) if (typeof v[k] !== 'string') return false;
  return true;
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

function time(v: unknown, i: number): string {
  if (typeof v !== 'string' || v === '' || Number.isNaN(Date.parse(v)))
    throw new AlertmanagerInputError(
      'malformed',
      typeof v === 'string' && v !== ''
        ? `"alerts[${i}].startsAt" must be an RFC 3339 time`
        : `"alerts[${i}].startsAt" must be a non-empty string`,
    );
  return v;
}

/** Labels or annotations: absent is empty; otherwise an object of strings, kept as parsed. */
function labels(v: unknown, at: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isStrings(v)) throw new AlertmanagerInputError('malformed', `"${at}" must be an object of strings`);
  return v;
}
