import type { IncomingMessage, RequestListener, ServerOptions, ServerResponse } from 'node:http';

/**
 * The largest request body `POST /slack/events` takes: twice the largest body Slack sends back to us
 * with our own messages and views in it (an App Home click carries the whole view: 143 353 bytes
 * measured with every field at its longest and widest, test/security/slack-body-cap.test.ts), and
 * never more than 1 MiB. Larger is refused (413) before it is buffered.
 */
export const SLACK_BODY_LIMIT = 288 * 1024;

/** Any other route (probes, metrics): requests without a body. */
export const OTHER_BODY_LIMIT = 16 * 1024;

/**
 * Requests on the Slack route not answered yet. Each is unauthenticated until its whole body is in
 * and its signature checked, so together they may hold at most this many bodies (≈ 18 MiB); one
 * more is answered 503 and its connection closed. Probes and metrics are not counted.
 */
export const MAX_PENDING_SLACK_REQUESTS = 64;

/** A Slack request whose body is not all in by then is answered 408 and its connection closed. */
export const SLACK_BODY_DEADLINE_MS = 30_000;

/**
 * Node's server timeouts (its defaults wait 300 s for a request): headers within 10 s, the whole
 * request within 30 s, checked every 2 s — a stalled request is answered 408 and its connection
 * closed within 32 s; an idle kept-alive connection is closed after 5 s.
 */
export const HTTP_SERVER_OPTIONS: ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 2_000,
  keepAliveTimeout: 5_000,
};

/**
 * A request listener with the body caps and the pending-request limit in front of `next`: a declared
 * `Content-Length` over the route's cap is answered 413 before any byte of the body is read; past the
 * pending limit on a Slack route, 503; a Slack request whose body is not complete within
 * {@link SLACK_BODY_DEADLINE_MS}, 408. Each refusal closes the connection. A chunked body on a Slack
 * route is cut at the same cap by Bolt's reader (its `bodyLimit`); other routes never read a body.
 * `slackPaths` are the routes with the Slack cap; `bodyLimits` gives a route that reads a body of its
 * own (Alertmanager's webhook, `alertmanager.maxBodyBytes`) its cap.
 */
export function limitRequests(
  next: RequestListener,
  opts: {
    slackPaths: string[];
    bodyLimits?: Readonly<Record<string, number>>;
    onRefused?: (status: number, reason: string) => void;
  },
): RequestListener {
  let pending = 0;
  const refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string) => {
    opts.onRefused?.(status, reason);
    if (!res.headersSent) res.writeHead(status, { connection: 'close', 'content-length': '0' });
    res.end();
    // The answer goes out, then the connection is closed whatever the client does: a client that
    // is still sending or never reads must not keep it (the answer's own flush may never be reported).
    req.socket.end();
    setTimeout(() => req.socket.destroy(), 1000).unref();
  };
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const slack = opts.slackPaths.includes(path);
    const cap = opts.bodyLimits?.[path] ?? (slack ? SLACK_BODY_LIMIT : OTHER_BODY_LIMIT);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > cap) return refuse(req, res, 413, `body over ${cap} bytes`);
    if (slack) {
      if (pending >= MAX_PENDING_SLACK_REQUESTS) return refuse(req, res, 503, 'too many pending requests');
      pending += 1;
      let done = false;
      const release = () => {
        if (!done) ((done = true), (pending -= 1));
      };
      res.once('close', release);
      req.once('close', release);
      // Node's own request timeout (HTTP_SERVER_OPTIONS) is checked from a list of connections that
      // a flood of cut-off connections can leave stale; this deadline needs nothing but a timer.
      const deadline = setTimeout(
        () => refuse(req, res, 408, `body not complete within ${SLACK_BODY_DEADLINE_MS / 1000} s`),
        SLACK_BODY_DEADLINE_MS,
      );
      deadline.unref();
      const clear = () => clearTimeout(deadline);
      req.once('end', clear);
      res.once('close', clear);
    }
    next(req, res);
  };
}
