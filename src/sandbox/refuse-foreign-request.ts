import type { IncomingMessage } from 'node:http';

/** Why a request to a sandbox port is refused: the status and one line for the answer. */
export interface ForeignRequest {
  status: 403 | 415 | 421;
  message: string;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The checks every loopback port of the sandbox applies, so another web page in the user's browser
 * cannot use it: the `Host` must be this very port on 127.0.0.1 or localhost (a DNS-rebinding page
 * names its own host) → 421; an `Origin`, when sent, must be that same origin (the bot's clients send
 * none; a browser sends it on a cross-site write) → 403; with `jsonPosts`, a POST must carry a JSON
 * content type (a cross-site form or `text/plain` fetch, which needs no CORS preflight, cannot) → 415.
 * PUT, PATCH and DELETE always need a preflight, which no sandbox port grants.
 */
export function refuseForeignRequest(
  req: IncomingMessage,
  port: number,
  opts: { jsonPosts: boolean },
): ForeignRequest | undefined {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = String(req.headers.host ?? '').toLowerCase();
  if (!own.includes(host))
    return { status: 421, message: 'wrong host: this sandbox port answers to 127.0.0.1 and localhost only' };
  const origin = req.headers.origin;
  if (origin !== undefined && !own.some((h) => origin.toLowerCase() === `http://${h}`))
    return { status: 403, message: 'cross-origin request refused' };
  if (opts.jsonPosts && req.method === 'POST' && !JSON_TYPE.test(String(req.headers['content-type'] ?? '')))
    return { status: 415, message: 'send JSON' };
  return undefined;
}
