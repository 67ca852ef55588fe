import { K8sHealthError } from '../errors/k8s-health-error.js';

/** One matcher of an Alertmanager API v2 silence. */
export interface SilenceMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual: boolean;
}

/** What a silence says: its matchers, its window, who made it and why. */
export interface SilenceSpec {
  matchers: SilenceMatcher[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
}

/** Alertmanager's API v2 as far as the Silence buttons need it. */
export interface AlertmanagerApi {
  /** POST /api/v2/silences; the new silence's id. */
  createSilence(spec: SilenceSpec): Promise<string>;
  /** DELETE /api/v2/silence/{id} (expires it). */
  expireSilence(id: string): Promise<void>;
}

/**
 * A client of Alertmanager's API v2 at `alertmanager.url`. Every failure — no answer within
 * `timeoutMs`, a non-2xx, an answer without an id — is one K8sHealthError `E_ALERTMANAGER_API` naming
 * the URL and what happened, so the Slack reply can say it in one line. Alertmanager's own error text
 * is untrusted (the caller neutralizes it).
 */
export function createAlertmanagerApi(
  baseUrl: string,
  opts: { timeoutMs?: number; fetch?: typeof fetch } = {},
): AlertmanagerApi {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 5000;
  const doFetch = opts.fetch ?? fetch;
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const why =
        err instanceof Error && err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : err instanceof Error
            ? err.cause instanceof Error
              ? err.cause.message
              : err.message
            : String(err);
      throw new K8sHealthError(
        'E_ALERTMANAGER_API',
        `Alertmanager at ${base} is unreachable (${why}): check alertmanager.url`,
        { cause: err },
      );
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new K8sHealthError(
        'E_ALERTMANAGER_API',
        `Alertmanager at ${base} refused ${method} ${path.replace(/\/[0-9a-f-]{36}$/, '/…')}: ${res.status} ${text.trim().slice(0, 200)}`,
      );
    try {
      return text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    async createSilence(spec) {
      const out = (await call('POST', '/api/v2/silences', spec)) as { silenceID?: unknown } | undefined;
      if (typeof out?.silenceID !== 'string' || out.silenceID === '')
        throw new K8sHealthError(
          'E_ALERTMANAGER_API',
          `Alertmanager at ${base} created no silence id: is alertmanager.url Alertmanager itself?`,
        );
      return out.silenceID;
    },
    async expireSilence(id) {
      await call('DELETE', `/api/v2/silence/${encodeURIComponent(id)}`);
    },
  };
}

/**
 * The matchers that silence exactly this alert: every label of it, equal (Alertmanager silences what
 * all matchers match, so another alert of the same rule on another object stays loud). Sorted by name.
 */
export function silenceMatchers(labels: Readonly<Record<string, string>>): SilenceMatcher[] {
  return Object.keys(labels)
    .sort()
    .filter((name) => labels[name] !== '')
    .map((name) => ({ name, value: labels[name]!, isRegex: false, isEqual: true }));
}
