import type { ApiServerState, ReadyzCheck } from '../snapshot.js';

/** `[+]ping ok` / `[-]etcd failed: reason withheld` — one line per check of `/readyz?verbose`. */
const CHECK_LINE = /^\[([+-])\]\s*(\S+)\s*(.*)$/;

/**
 * Parse the body of `GET /readyz?verbose` into an ApiServerState (dump `apiserver/readyz.txt` and
 * the live collector both use it). The API server answers 200 with "readyz check passed" when every
 * check is ok, and 500 with "readyz check failed" otherwise; the real reason of a failed check is
 * withheld from the body (it goes to the apiserver log), so `message` is usually "reason withheld".
 * A body that is not in the verbose format (a proxy error page, a JSON Status) keeps its first line
 * as `error`.
 */
export function parseReadyz(body: string, httpStatus?: number): ApiServerState {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const checks: ReadyzCheck[] = [];
  let verdict: boolean | undefined;
  for (const line of lines) {
    const m = CHECK_LINE.exec(line);
    if (m) {
      const ok = m[1] === '+';
      const rest = (m[3] ?? '').trim();
      const check: ReadyzCheck = { name: m[2] as string, ok };
      if (!ok) {
        // "failed: reason withheld" → "reason withheld"; keep anything else verbatim.
        const message = rest.replace(/^failed:?\s*/, '');
        if (message) check.message = message;
      }
      checks.push(check);
      continue;
    }
    // Without ?verbose a healthy server answers just "ok".
    if (/^(readyz|healthz|livez) check passed$/.test(line) || line === 'ok') verdict = true;
    else if (/^(readyz|healthz|livez) check failed$/.test(line)) verdict = false;
  }
  const failed = checks.filter((c) => !c.ok);
  // Precedence: the body's own verdict, then the HTTP status, then the checks themselves.
  const ready =
    verdict ??
    (httpStatus !== undefined
      ? httpStatus >= 200 && httpStatus < 300 && failed.length === 0
      : checks.length > 0
        ? failed.length === 0
        : undefined);
  const state: ApiServerState = { reachable: true, checks };
  if (ready !== undefined) state.ready = ready;
  if (ready === false) {
    if (failed.length > 0) state.error = `readyz failed: ${failed.map((c) => c.name).join(', ')}`;
    else state.error = firstLineOf(body, httpStatus);
  } else if (ready === undefined && lines.length > 0) {
    state.error = firstLineOf(body, httpStatus);
  }
  return state;
}

/** A one-line reason for a body that is not a readyz report: a JSON Status message or the first line. */
function firstLineOf(body: string, httpStatus?: number): string {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      const status = JSON.parse(trimmed) as { message?: unknown };
      if (typeof status.message === 'string' && status.message) return oneLine(status.message);
    } catch {
      // not JSON after all: fall back to the first line below
    }
  }
  const first = trimmed.split(/\r?\n/)[0] ?? '';
  if (first) return oneLine(first);
  return httpStatus !== undefined
    ? `readyz returned HTTP ${httpStatus} with an empty body`
    : 'readyz returned an empty body';
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}
