import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { refuseForeignRequest } from './refuse-foreign-request.js';
import { SANDBOX_APP_ID, SANDBOX_BOT, SANDBOX_PEOPLE, SANDBOX_TEAM_ID } from './sandbox-people.js';

/** One message of the simulated channel, as the page shows it. */
export interface SandboxMessage {
  ts: string;
  /** Parent's ts when this is a thread reply. */
  threadTs?: string;
  /** Author: the bot (U0BOT) or a person. */
  user: string;
  text: string;
  blocks: unknown[];
  /** Changed after it was posted (chat.update or a response_url replace_original). */
  edited: boolean;
  /** Only this user sees it (chat.postEphemeral, an ephemeral response_url reply or ack). */
  ephemeralFor?: string;
}

/** A modal open for one user (views.open), with the errors of its last submission. */
export interface SandboxView {
  id: string;
  user: string;
  view: Record<string, unknown>;
  errors?: Record<string, string>;
}

/** The App Home view last published for one user (views.publish). */
export interface SandboxHomeView {
  id: string;
  user: string;
  view: Record<string, unknown>;
}

/** Where a response_url reply goes: who clicked or typed, in which channel, from which message. */
interface ResponseTarget {
  user: string;
  channel: string;
  messageTs?: string;
}

/**
 * The sandbox's Slack: an in-process fake of the Slack Web API (the methods the bot calls:
 * auth.test, chat.postMessage, chat.update, chat.postEphemeral, views.open, views.publish, users.info,
 * usergroups.users.list) and of response_urls, which keeps the one channel the page shows:
 * messages, threads, edits in place, ephemeral messages per user and open modals, and each user's
 * App Home view (the last one published for them). It is the only
 * Slack there is in the sandbox: the bot's WebClient reaches it through `apiUrl`.
 */
export interface SandboxSlack {
  /** Web API base URL for the bot's WebClient (slackApiUrl), ending in /api/. */
  apiUrl: string;
  /** The only bot token auth.test accepts (random per run). */
  token: string;
  /** Grows on every change; the page long-polls it. */
  readonly version: number;
  /** Resolve with the version once it is above `since`, or after `timeoutMs` with the current one. */
  changedSince(since: number, timeoutMs: number): Promise<number>;
  /** Every public message, and the ephemeral ones of `user`, in posting order. */
  messagesFor(user: string): SandboxMessage[];
  findMessage(ts: string): SandboxMessage | undefined;
  /** The modal open for `user`, if any. */
  viewFor(user: string): SandboxView | undefined;
  findView(id: string): SandboxView | undefined;
  /** The Home view last published for `user` (views.publish), if any. */
  homeFor(user: string): SandboxHomeView | undefined;
  closeView(id: string): void;
  setViewErrors(id: string, errors: Record<string, string>): void;
  /** A response_url for a command or click of `user` (replies land in the channel as Slack would put them). */
  newResponseUrl(target: ResponseTarget): string;
  /** A trigger_id for `user`: views.open with it opens the modal for that user. */
  newTriggerId(user: string): string;
  /** Show `text` to `user` only (an ack with a body, an error of the sandbox itself). */
  postEphemeral(user: string, channel: string, text: string, opts?: { blocks?: unknown[]; threadTs?: string }): void;
  /** Tell the page something changed besides the channel (a scan started or ended, a reset). */
  touch(): void;
  /** Web API methods the bot called that the sandbox does not know (the page lists them). */
  unknownCalls: string[];
  /** Forget every message, modal, Home view and response_url (reset). */
  clear(): void;
  close(): Promise<void>;
}

/** Start the sandbox Slack on 127.0.0.1 (a free port); `clock` gives message timestamps. */
export async function startSandboxSlack(opts: { clock?: () => Date } = {}): Promise<SandboxSlack> {
  const clock = opts.clock ?? (() => new Date());
  const token = `xoxb-sandbox-${randomBytes(12).toString('hex')}`;
  let messages: SandboxMessage[] = [];
  let views: SandboxView[] = [];
  let homes = new Map<string, SandboxHomeView>();
  let responseTargets = new Map<string, ResponseTarget>();
  let triggers = new Map<string, string>();
  const unknownCalls: string[] = [];
  /** Files being uploaded the files.uploadV2 way, by id, until files.completeUploadExternal shares them. */
  const uploads = new Map<string, { filename: string; content: string }>();
  let base = '';
  let version = 0;
  let seq = 0;
  let waiters: Array<() => void> = [];
  const bump = () => {
    version += 1;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  // Slack's ts is "<unix seconds>.<6 digits>", unique per channel; the sequence keeps them unique
  // and ordered even when the sandbox clock stands still.
  const nextTs = () => `${Math.floor(clock().getTime() / 1000)}.${String(++seq).padStart(6, '0')}`;
  const post = (m: Omit<SandboxMessage, 'ts' | 'edited'>): SandboxMessage => {
    const message = { ...m, ts: nextTs(), edited: false };
    messages.push(message);
    bump();
    return message;
  };

  const handleApi = (
    method: string,
    body: Record<string, unknown>,
    authToken: string | undefined,
  ): Record<string, unknown> => {
    if (authToken !== token) return { ok: false, error: 'invalid_auth' };
    const str = (v: unknown) =>
      typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v as { toString(): string });
    const blocksOf = (v: unknown) => withBlockIds(Array.isArray(v) ? v : []);
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://sandbox.invalid/',
          team: 'Sandbox',
          user: SANDBOX_BOT.name,
          team_id: SANDBOX_TEAM_ID,
          user_id: SANDBOX_BOT.id,
          bot_id: SANDBOX_BOT.botId,
        };
      case 'chat.postMessage': {
        const threadTs = str(body.thread_ts) || undefined;
        if (threadTs && !messages.some((m) => m.ts === threadTs && !m.threadTs))
          return { ok: false, error: 'thread_not_found' };
        const m = post({
          user: SANDBOX_BOT.id,
          text: str(body.text),
          blocks: blocksOf(body.blocks),
          ...(threadTs ? { threadTs } : {}),
        });
        return {
          ok: true,
          channel: str(body.channel),
          ts: m.ts,
          message: {
            type: 'message',
            text: m.text,
            blocks: m.blocks,
            ts: m.ts,
            user: m.user,
            ...(threadTs ? { thread_ts: threadTs } : {}),
          },
        };
      }
      case 'chat.update': {
        const m = messages.find((x) => x.ts === str(body.ts) && !x.ephemeralFor);
        if (!m) return { ok: false, error: 'message_not_found' };
        m.text = str(body.text);
        if (body.blocks !== undefined) m.blocks = blocksOf(body.blocks);
        m.edited = true;
        bump();
        return { ok: true, channel: str(body.channel), ts: m.ts, text: m.text };
      }
      case 'files.getUploadURLExternal': {
        const id = `F${String(++seq).padStart(8, '0')}`;
        uploads.set(id, { filename: str(body.filename), content: '' });
        return { ok: true, file_id: id, upload_url: `${base}/upload/${id}` };
      }
      case 'files.completeUploadExternal': {
        // Shared where Slack shares it: a message in the channel (or thread) with the initial comment
        // and the file, shown as its name and a preview of its text.
        let listed: { id?: unknown; title?: unknown }[] = [];
        try {
          listed = (
            typeof body.files === 'string' ? JSON.parse(body.files) : Array.isArray(body.files) ? body.files : []
          ) as typeof listed;
        } catch {
          return { ok: false, error: 'invalid_arguments' };
        }
        const threadTs = str(body.thread_ts) || undefined;
        const shared = listed.map((f) => ({ id: str(f.id), title: str(f.title), file: uploads.get(str(f.id)) }));
        if (shared.some((f) => !f.file)) return { ok: false, error: 'file_not_found' };
        for (const f of shared) {
          const lines = f.file!.content.split('\n').length;
          post({
            user: SANDBOX_BOT.id,
            text: str(body.initial_comment) || f.title,
            blocks: withBlockIds([
              ...(str(body.initial_comment)
                ? [{ type: 'section', text: { type: 'mrkdwn', text: str(body.initial_comment) } }]
                : []),
              {
                type: 'context',
                elements: [{ type: 'mrkdwn', text: `:page_facing_up: ${f.file!.filename} · ${lines} lines` }],
              },
              {
                type: 'rich_text',
                elements: [
                  {
                    type: 'rich_text_preformatted',
                    elements: [{ type: 'text', text: f.file!.content.slice(0, 2900) }],
                  },
                ],
              },
            ]),
            ...(threadTs ? { threadTs } : {}),
          });
          uploads.delete(f.id);
        }
        return { ok: true, files: shared.map((f) => ({ id: f.id, title: f.title })) };
      }
      case 'chat.postEphemeral': {
        const threadTs = str(body.thread_ts) || undefined;
        const m = post({
          user: SANDBOX_BOT.id,
          text: str(body.text),
          blocks: blocksOf(body.blocks),
          ephemeralFor: str(body.user),
          ...(threadTs ? { threadTs } : {}),
        });
        return { ok: true, message_ts: m.ts };
      }
      case 'views.open': {
        const user = triggers.get(str(body.trigger_id));
        if (!user) return { ok: false, error: 'invalid_trigger_id' };
        triggers.delete(str(body.trigger_id)); // a trigger_id opens one view, as in Slack
        const view = typeof body.view === 'object' && body.view ? (body.view as Record<string, unknown>) : {};
        const id = `V${String(++seq).padStart(8, '0')}`;
        views = views.filter((v) => v.user !== user);
        views.push({ id, user, view });
        bump();
        return { ok: true, view: { id, team_id: SANDBOX_TEAM_ID, ...view } };
      }
      case 'views.publish': {
        // The App Home tab: the latest view published for the user replaces the one before; the view
        // keeps its id across publishes, as a user's Home does in Slack.
        const user = str(body.user_id);
        if (!SANDBOX_PEOPLE.some((p) => p.id === user)) return { ok: false, error: 'user_not_found' };
        const view = typeof body.view === 'object' && body.view ? (body.view as Record<string, unknown>) : undefined;
        if (!view || view.type !== 'home') return { ok: false, error: 'invalid_arguments' };
        const id = homes.get(user)?.id ?? `V${String(++seq).padStart(8, '0')}`;
        const stored = { ...view, blocks: blocksOf(view.blocks) };
        homes.set(user, { id, user, view: stored });
        bump();
        return {
          ok: true,
          view: {
            id,
            team_id: SANDBOX_TEAM_ID,
            app_id: SANDBOX_APP_ID,
            bot_id: SANDBOX_BOT.botId,
            hash: `${Date.now()}.${seq}`,
            ...stored,
          },
        };
      }
      case 'users.info': {
        const id = str(body.user);
        if (id === SANDBOX_BOT.id)
          return {
            ok: true,
            user: { id, name: SANDBOX_BOT.name, team_id: SANDBOX_TEAM_ID, deleted: false, is_bot: true },
          };
        const p = SANDBOX_PEOPLE.find((x) => x.id === id);
        if (!p) return { ok: false, error: 'user_not_found' };
        return {
          ok: true,
          user: {
            id: p.id,
            name: p.name,
            real_name: p.realName,
            team_id: SANDBOX_TEAM_ID,
            deleted: false,
            is_bot: false,
            is_app_user: false,
            is_restricted: false,
            is_ultra_restricted: false,
          },
        };
      }
      case 'usergroups.users.list':
        return { ok: false, error: 'no_such_subteam' };
      default:
        unknownCalls.push(method);
        bump();
        return { ok: false, error: 'unknown_method' };
    }
  };

  // A response_url reply, placed where Slack places it (api.slack.com/interactivity/handling#message_responses):
  // replace_original / delete_original act on the message the click came from; otherwise
  // in_channel posts publicly and anything else is ephemeral to the user who clicked or typed.
  const handleResponse = (target: ResponseTarget, body: Record<string, unknown>) => {
    const original = target.messageTs ? messages.find((m) => m.ts === target.messageTs) : undefined;
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = withBlockIds(Array.isArray(body.blocks) ? body.blocks : []);
    if (body.delete_original === true || body.delete_original === 'true') {
      messages = messages.filter((m) => m !== original);
      bump();
      return;
    }
    if ((body.replace_original === true || body.replace_original === 'true') && original) {
      original.text = text;
      original.blocks = blocks;
      original.edited = true;
      bump();
      return;
    }
    // An ephemeral answer to a click inside a thread shows in that thread.
    const inThread = original?.threadTs ? { threadTs: original.threadTs } : {};
    if (body.response_type === 'in_channel') post({ user: SANDBOX_BOT.id, text, blocks });
    else post({ user: SANDBOX_BOT.id, text, blocks, ephemeralFor: target.user, ...inThread });
  };

  let port = 0;
  const server = http.createServer((req, res) => {
    // Loopback only, and no other web page: the bot's Web API client sends neither another Host nor an Origin.
    const foreign = refuseForeignRequest(req, port, { jsonPosts: false });
    if (foreign) {
      req.resume();
      res.writeHead(foreign.status, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ ok: false, error: foreign.message }));
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = parseBody(
        Buffer.concat(chunks).toString('utf8'),
        String(req.headers['content-type'] ?? ''),
        url.searchParams,
      );
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && url.pathname.startsWith('/upload/')) {
        const upload = uploads.get(url.pathname.slice('/upload/'.length));
        if (!upload) return reply(404, { ok: false, error: 'unknown_upload' });
        upload.content = readUpload(Buffer.concat(chunks).toString('utf8'), String(req.headers['content-type'] ?? ''));
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`OK - ${upload.content.length}`);
        return;
      }
      if (req.method === 'POST' && url.pathname.startsWith('/response/')) {
        const target = responseTargets.get(url.pathname.slice('/response/'.length));
        if (!target) return reply(404, { ok: false, error: 'expired_url' });
        handleResponse(target, body);
        return reply(200, { ok: true });
      }
      if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
        const auth = String(req.headers.authorization ?? '');
        const authToken = auth.startsWith('Bearer ')
          ? auth.slice(7)
          : typeof body.token === 'string'
            ? body.token
            : undefined;
        return reply(200, handleApi(url.pathname.slice('/api/'.length), body, authToken));
      }
      reply(404, { ok: false, error: 'unknown_path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${base}/api/`,
    token,
    get version() {
      return version;
    },
    changedSince(since, timeoutMs) {
      if (version > since) return Promise.resolve(version);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          resolve(version);
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve(version);
        };
        waiters.push(done);
      });
    },
    messagesFor: (user) => messages.filter((m) => !m.ephemeralFor || m.ephemeralFor === user),
    findMessage: (ts) => messages.find((m) => m.ts === ts),
    viewFor: (user) => views.find((v) => v.user === user),
    findView: (id) => views.find((v) => v.id === id),
    homeFor: (user) => homes.get(user),
    closeView(id) {
      views = views.filter((v) => v.id !== id);
      bump();
    },
    setViewErrors(id, errors) {
      const v = views.find((x) => x.id === id);
      if (v) v.errors = errors;
      bump();
    },
    newResponseUrl(target) {
      const id = randomBytes(9).toString('hex');
      responseTargets.set(id, target);
      return `${base}/response/${id}`;
    },
    newTriggerId(user) {
      const id = `${++seq}.${randomBytes(6).toString('hex')}`;
      triggers.set(id, user);
      return id;
    },
    postEphemeral(user, _channel, text, o = {}) {
      post({
        user: SANDBOX_BOT.id,
        text,
        blocks: withBlockIds(o.blocks ?? []),
        ephemeralFor: user,
        ...(o.threadTs ? { threadTs: o.threadTs } : {}),
      });
    },
    touch: bump,
    unknownCalls,
    clear() {
      messages = [];
      views = [];
      homes = new Map();
      responseTargets = new Map();
      triggers = new Map();
      unknownCalls.length = 0;
      bump();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of waiters) w();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Slack gives every block without a block_id one of its own; clicks then carry it (the page names the block by it). */
function withBlockIds(blocks: unknown[]): unknown[] {
  return blocks.map((b, i) =>
    typeof b === 'object' && b !== null && !('block_id' in b)
      ? { ...b, block_id: `b${i}-${randomBytes(3).toString('hex')}` }
      : b,
  );
}

/**
 * A Web API body: JSON, or form fields where the JSON-valued ones (blocks, view) are decoded as WebClient encodes them.
 */
function parseBody(raw: string, contentType: string, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(query);
  if (!raw) return out;
  if (contentType.includes('application/json')) {
    try {
      return { ...out, ...(JSON.parse(raw) as object) };
    } catch {
      return out;
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

/** The file part of a multipart/form-data body (what the WebClient POSTs to an upload_url), else the body itself. */
function readUpload(raw: string, contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(contentType);
  if (!m) return raw;
  for (const part of raw.split(`--${m[1] ?? m[2]}`)) {
    const i = part.indexOf('\r\n\r\n');
    if (i >= 0 && /content-disposition/i.test(part.slice(0, i))) return part.slice(i + 4).replace(/\r\n$/, '');
  }
  return '';
}
