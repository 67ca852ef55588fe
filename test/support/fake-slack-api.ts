import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Web API call the fake received: the method and its body, parsed (JSON-looking fields decoded). */
export interface RecordedCall {
  method: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: Record<string, any>;
  token?: string;
}

/** One POST to a response_url served by the fake. */
export interface RecordedResponse {
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: Record<string, any>;
}

/** The workspace the fake is: auth.test's team_id, and the team of every member added with addMember. */
export const FAKE_TEAM_ID = 'T0TEAM';

/** A user as users.info returns it (the fields the bot reads; api.slack.com/methods/users.info). */
export interface FakeSlackUser {
  id: string;
  name: string;
  real_name?: string;
  team_id?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_app_user?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_stranger?: boolean;
  enterprise_user?: { id?: string; enterprise_id?: string };
}

/** A canned failure for the next calls of a method (fault injection). */
export type Fault = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 } | { error: string };

export interface FakeSlackApi {
  port: number;
  /** Web API base URL for SLACK_API_URL / clientOptions.slackApiUrl (ends with /api/). */
  apiUrl: string;
  calls: RecordedCall[];
  responses: RecordedResponse[];
  /** Hold every chat.postMessage answer this long (recorded on arrival): a post in flight for failover tests. */
  postDelayMs: number;
  /**
   * Files uploaded the files.uploadV2 way (files.getUploadURLExternal, a POST of the bytes to the
   * returned upload_url, files.completeUploadExternal), by file id: name, content and where it was shared.
   */
  files: Map<
    string,
    { filename: string; content: string; title?: string; channel?: string; threadTs?: string; initialComment?: string }
  >;
  /** Current text/blocks of every message posted, by `${channel}/${ts}` (chat.update applies in place). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  messages: Map<string, Record<string, any>>;
  /** A response_url served by this fake. */
  responseUrl(id?: string): string;
  callsTo(method: string): RecordedCall[];
  /** Resolve once `predicate` holds (polled), or reject after `timeoutMs` naming `what`. */
  waitFor<T>(what: string, predicate: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** Fail the next `times` calls of `method`. */
  fail(method: string, fault: Fault, times?: number): void;
  /** chat.postMessage to this channel answers not_in_channel (a private channel the bot was not invited to). */
  notInChannel: Set<string>;
  /** users.info answers user_not_found for anyone not in here. */
  users: Map<string, FakeSlackUser>;
  /** Add active full members of the fake's workspace (users.info), with optional overrides for one-off accounts. */
  addMember(ids: string | readonly string[], overrides?: Partial<FakeSlackUser>): void;
  usergroups: Map<string, string[]>;
  /** The App Home view last published for each user (views.publish). */
  homes: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * A local fake of Slack's Web API over real HTTP: auth.test, chat.postMessage, chat.update,
 * chat.postEphemeral, views.open, views.publish, users.info, usergroups.users.list, plus response_url endpoints. Every
 * call is recorded. `validToken` is the only bot token auth.test accepts. users.info knows only the users added
 * (addMember / users), as a real workspace knows only its members.
 */
export async function startFakeSlackApi(
  opts: { validToken?: string; appToken?: string; socketModeUrl?: string } = {},
): Promise<FakeSlackApi> {
  const validToken = opts.validToken ?? 'xoxb-test-token';
  /** Socket Mode (apps.connections.open): the app-level token and the ws:// URL it is answered with. */
  const appToken = opts.appToken ?? 'xapp-test-token';
  const socketModeUrl = opts.socketModeUrl;
  const calls: RecordedCall[] = [];
  const responses: RecordedResponse[] = [];
  const messages = new Map<string, Record<string, unknown>>();
  const faults = new Map<string, { fault: Fault; left: number }>();
  const notInChannel = new Set<string>();
  const users = new Map<string, FakeSlackUser>();
  const usergroups = new Map<string, string[]>();
  const homes = new Map<string, Record<string, unknown>>();
  const files = new Map<
    string,
    { filename: string; content: string; title?: string; channel?: string; threadTs?: string; initialComment?: string }
  >();
  let seq = 0;
  const state = { postDelayMs: 0 };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // The upload_url of files.getUploadURLExternal: the file's bytes (multipart, as the WebClient sends them).
      if (url.pathname.startsWith('/upload/')) {
        const file = files.get(url.pathname.slice('/upload/'.length));
        if (!file) return void res.writeHead(404).end('unknown upload');
        file.content = multipartFile(raw, String(req.headers['content-type'] ?? ''));
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${file.content.length}`);
        return;
      }
      const body = parseBody(raw, String(req.headers['content-type'] ?? ''), url.searchParams);
      let delay = 0;
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        const send = () => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(value));
        };
        if (delay > 0) setTimeout(send, delay);
        else send();
      };
      if (url.pathname.startsWith('/response/')) {
        responses.push({ path: url.pathname, body });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      if (!url.pathname.startsWith('/api/')) {
        json(404, { ok: false, error: 'unknown_path' });
        return;
      }
      const method = url.pathname.slice('/api/'.length);
      const auth = String(req.headers.authorization ?? '');
      const token = auth.startsWith('Bearer ')
        ? auth.slice(7)
        : typeof body.token === 'string'
          ? body.token
          : undefined;
      calls.push({ method, body, token });
      if (method === 'chat.postMessage') delay = state.postDelayMs;

      const f = faults.get(method);
      if (f && f.left > 0) {
        f.left -= 1;
        if ('error' in f.fault) return json(200, { ok: false, error: f.fault.error });
        if (f.fault.status === 429)
          return json(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(f.fault.retryAfter) });
        return json(f.fault.status, { ok: false, error: 'internal_error' });
      }
      // Socket Mode: the app-level token opens a connection; the URL is the test's WebSocket server.
      if (method === 'apps.connections.open') {
        if (!socketModeUrl || token !== appToken) return json(200, { ok: false, error: 'invalid_auth' });
        return json(200, { ok: true, url: socketModeUrl });
      }
      if (token !== validToken) return json(200, { ok: false, error: 'invalid_auth' });
      switch (method) {
        case 'auth.test':
          return json(200, {
            ok: true,
            url: 'https://example.slack.com/',
            team: 'Example',
            user: 'k8s-health',
            team_id: FAKE_TEAM_ID,
            user_id: 'U0BOT',
            bot_id: 'B0BOT',
          });
        case 'chat.postMessage': {
          const channel = String(body.channel ?? '');
          if (notInChannel.has(channel)) return json(200, { ok: false, error: 'not_in_channel' });
          seq += 1;
          const ts = `1700000000.${String(seq).padStart(6, '0')}`;
          const message = { text: body.text, blocks: body.blocks, ts, user: 'U0BOT' };
          messages.set(`${channel}/${ts}`, message);
          return json(200, { ok: true, channel, ts, message });
        }
        case 'chat.update': {
          const key = `${body.channel}/${body.ts}`;
          if (!messages.has(key)) return json(200, { ok: false, error: 'message_not_found' });
          messages.set(key, { ...messages.get(key), text: body.text, blocks: body.blocks });
          return json(200, { ok: true, channel: body.channel, ts: body.ts, text: body.text });
        }
        case 'chat.postEphemeral':
          seq += 1;
          return json(200, { ok: true, message_ts: `1700000000.${String(seq).padStart(6, '0')}` });
        case 'views.open':
          seq += 1;
          return json(200, { ok: true, view: { id: `V${seq}`, ...(typeof body.view === 'object' ? body.view : {}) } });
        case 'views.publish': {
          // The App Home tab: the last view published per user (homes), every call recorded.
          const user = String(body.user_id ?? '');
          if (!user) return json(200, { ok: false, error: 'invalid_arguments' });
          homes.set(user, typeof body.view === 'object' ? (body.view as Record<string, unknown>) : {});
          seq += 1;
          return json(200, { ok: true, view: { id: `V${seq}`, ...(typeof body.view === 'object' ? body.view : {}) } });
        }
        case 'files.getUploadURLExternal': {
          seq += 1;
          const id = `F${String(seq).padStart(8, '0')}`;
          files.set(id, { filename: String(body.filename ?? ''), content: '' });
          return json(200, {
            ok: true,
            file_id: id,
            upload_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload/${id}`,
          });
        }
        case 'files.completeUploadExternal': {
          const listed = (typeof body.files === 'string' ? JSON.parse(body.files) : body.files) as {
            id: string;
            title?: string;
          }[];
          const channel = String(body.channel_id ?? '');
          for (const f of listed) {
            const file = files.get(f.id);
            if (!file) return json(200, { ok: false, error: 'file_not_found' });
            Object.assign(file, {
              title: f.title,
              channel,
              threadTs: body.thread_ts ? String(body.thread_ts) : undefined,
              initialComment: body.initial_comment ? String(body.initial_comment) : undefined,
            });
          }
          return json(200, { ok: true, files: listed.map((f) => ({ id: f.id, title: f.title })) });
        }
        case 'users.info': {
          const u = users.get(String(body.user ?? ''));
          return u ? json(200, { ok: true, user: u }) : json(200, { ok: false, error: 'user_not_found' });
        }
        case 'usergroups.users.list': {
          const members = usergroups.get(String(body.usergroup ?? ''));
          return members ? json(200, { ok: true, users: members }) : json(200, { ok: false, error: 'no_such_subteam' });
        }
        default:
          return json(200, { ok: false, error: 'unknown_method' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let responseSeq = 0;

  return {
    port,
    apiUrl: `http://127.0.0.1:${port}/api/`,
    get postDelayMs() {
      return state.postDelayMs;
    },
    set postDelayMs(ms: number) {
      state.postDelayMs = ms;
    },
    calls,
    responses,
    files,
    messages,
    notInChannel,
    users,
    addMember(ids, overrides = {}) {
      for (const id of typeof ids === 'string' ? [ids] : ids) {
        users.set(id, {
          id,
          name: id.toLowerCase(),
          team_id: FAKE_TEAM_ID,
          deleted: false,
          is_bot: false,
          is_restricted: false,
          is_ultra_restricted: false,
          ...overrides,
        });
      }
    },
    usergroups,
    homes,
    responseUrl: (id) => `http://127.0.0.1:${port}/response/${id ?? `r${++responseSeq}`}`,
    callsTo: (method) => calls.filter((c) => c.method === method),
    async waitFor(what, predicate, timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = predicate();
        if (v) return v;
        if (Date.now() > deadline) throw new Error(`fake Slack: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    fail(method, fault, times = 1) {
      faults.set(method, { fault, left: times });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Form or JSON body; form fields that hold JSON (blocks, attachments) are decoded as WebClient encodes them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parseBody(raw: string, contentType: string, query: URLSearchParams): Record<string, any> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const out: Record<string, any> = Object.fromEntries(query);
  if (!raw) return out;
  if (contentType.includes('application/json')) {
    try {
      return { ...out, ...(JSON.parse(raw) as object) };
    } catch {
      return { ...out, _raw: raw };
    }
  }
  for (const [k, v] of new URLSearchParams(raw)) {
    if (/^[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        // not JSON after all: keep the string
      }
    }
    out[k] = v;
  }
  return out;
}

/**
 * The first file part of a multipart/form-data body (what the WebClient POSTs to an upload_url), else the body itself.
 */
function multipartFile(raw: string, contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(contentType);
  if (!m) return raw;
  for (const part of raw.split(`--${m[1] ?? m[2]}`)) {
    const i = part.indexOf('\r\n\r\n');
    if (i >= 0 && /content-disposition/i.test(part.slice(0, i))) return part.slice(i + 4).replace(/\r\n$/, '');
  }
  return '';
}
