import type { ClickedElement } from './create-slack-request.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { refuseForeignRequest } from './refuse-foreign-request.js';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createAppHomeOpenedBody,
  createBlockActionBody,
  createCommandBody,
  createViewSubmissionBody,
} from './create-slack-request.js';
import type { SandboxScenario } from './list-sandbox-scenarios.js';
import { SANDBOX_BOT, SANDBOX_CHANNEL, SANDBOX_PEOPLE } from './sandbox-people.js';
import { startSandbox, type SandboxSession } from './start-sandbox.js';
import type { SandboxRedis } from './start-sandbox-redis.js';
import type { SandboxSlack } from './start-sandbox-slack.js';
import { describeError } from '../errors/describe-error.js';
import type { Logger } from '../log/logger.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';

/** The running sandbox: its page URL and how to stop everything it started. */
export interface SandboxPage {
  url: string;
  port: number;
  /** The scenario being played now. */
  readonly session: SandboxSession;
  stop(): Promise<void>;
}

/** A bad request from the page: answered with this status and one line. */
class PageError extends K8sHealthError {
  override readonly name = 'PageError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super('E_SANDBOX_PAGE', message);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Every asset is served from here, with a policy that lets the page load nothing from anywhere else
 * (no external network requests) and be framed by nobody.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Where the page's files are: beside this module in src/, or the source tree next to dist/. */
function findPageDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'page'), path.resolve(here, '../../src/sandbox/page')];
  const found = candidates.find((d) => existsSync(path.join(d, 'index.html')));
  if (!found)
    throw new K8sHealthError(
      'E_SANDBOX_PAGE',
      `the sandbox page files are missing (looked in ${candidates.join(', ')}): run it from a checkout of the repository`,
    );
  return found;
}

/**
 * The sandbox's web page and its API, on 127.0.0.1 only. The page reads the simulated channel (long
 * polling `GET /api/state`) and turns what the user does into what Slack would send the bot: a typed
 * `/k8s-health …` becomes a signed slash command, a click a signed `block_actions` interaction, a
 * submitted modal a signed `view_submission`, opening the Home tab a signed `app_home_opened` event,
 * each POSTed to the bot's request URL. "Next scan",
 * the scenario picker and reset drive the simulated cluster and restart the bot with empty state.
 * Requests must name this very host (a DNS-rebinding page cannot), carry no other origin, and POSTs
 * must be JSON (a cross-site form cannot send it), so other web pages cannot drive the sandbox — the
 * checks of every sandbox port (refuse-foreign-request.ts).
 */
export async function startSandboxPage(opts: {
  port: number;
  redis: SandboxRedis;
  slack: SandboxSlack;
  scenarios: SandboxScenario[];
  scenario: SandboxScenario;
  setClock: (clock: () => Date) => void;
  log: Logger;
}): Promise<SandboxPage> {
  const { slack, redis, scenarios } = opts;
  const pageDir = findPageDir();
  const assets = new Map(
    readdirSync(pageDir)
      .filter((f) => CONTENT_TYPES[path.extname(f)])
      .map((f) => [f, readFileSync(path.join(pageDir, f))]),
  );
  const start = (scenario: SandboxScenario) =>
    startSandbox({ scenario, redisUrl: redis.url, slack, setClock: opts.setClock, log: opts.log });
  let session = await start(opts.scenario);
  let busy: string | undefined;
  let notice: string | undefined;
  // Scans, resets and scenario changes run one at a time, in order.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(what: string, f: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      busy = what;
      slack.touch();
      try {
        return await f();
      } finally {
        busy = undefined;
        slack.touch();
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
  const restart = (scenario: SandboxScenario) =>
    exclusive(`Starting ${scenario.name}…`, async () => {
      await session.stop();
      slack.clear();
      await redis.flush();
      session = await start(scenario);
      notice = undefined;
    });

  const personOf = (id: unknown) => {
    const p = SANDBOX_PEOPLE.find((x) => x.id === id);
    if (!p)
      throw new PageError(
        400,
        `unknown person ${JSON.stringify(id)}: act as one of ${SANDBOX_PEOPLE.map((x) => x.id).join(', ')}`,
      );
    return p;
  };
  /** Slack shows the user an error when the app answers a request with anything but 200. */
  const tellFailure = (user: string, what: string, r: { status: number; body: string }) => {
    if (r.status !== 200)
      slack.postEphemeral(user, SANDBOX_CHANNEL.id, `k8s-health did not handle this ${what} (HTTP ${r.status}).`);
  };

  const api: Record<string, (body: Record<string, unknown>, url: URL) => Promise<unknown>> = {
    'GET /api/state': async (_b, url) => {
      const as = personOf(url.searchParams.get('as') ?? SANDBOX_PEOPLE[0]!.id).id;
      const since = Number(url.searchParams.get('since') ?? '-1');
      // Long poll: answer as soon as something changed, or after 20 s with the same version.
      if (Number.isFinite(since) && since >= slack.version) await slack.changedSince(since, 20_000);
      const view = slack.viewFor(as);
      const home = slack.homeFor(as);
      return {
        version: slack.version,
        now: session.now().toISOString(),
        busy: busy ?? null,
        notice: notice ?? null,
        scenario: {
          name: session.scenario.name,
          title: session.scenario.title,
          live: session.scenario.live,
          step: session.step + 1,
          steps: session.scenario.steps.length,
        },
        scenarios: scenarios.map((s) => ({ name: s.name, title: s.title, live: s.live, steps: s.steps.length })),
        people: SANDBOX_PEOPLE,
        bot: SANDBOX_BOT,
        channel: SANDBOX_CHANNEL,
        messages: slack.messagesFor(as).map((m) => ({
          ts: m.ts,
          threadTs: m.threadTs ?? null,
          user: m.user,
          text: m.text,
          blocks: m.blocks,
          edited: m.edited,
          ephemeral: Boolean(m.ephemeralFor),
        })),
        view: view ? { id: view.id, view: view.view, errors: view.errors ?? null } : null,
        // The Home view last published for this person (views.publish), shown on the page's Home tab.
        home: home ? { id: home.id, view: home.view } : null,
        unknownCalls: slack.unknownCalls,
      };
    },
    'POST /api/command': async (b) => {
      const as = personOf(b.as).id;
      const text = typeof b.text === 'string' ? b.text.replace(/^\s*\/k8s-health\b/, '').trim() : '';
      const body = createCommandBody({
        user: as,
        text,
        responseUrl: slack.newResponseUrl({ user: as, channel: SANDBOX_CHANNEL.id }),
        triggerId: slack.newTriggerId(as),
      });
      const r = await session.send(body);
      // An ack with a body (help, a bad argument) is what Slack shows the user alone.
      const ack = parseJson(r.body);
      if (r.status === 200 && ack && typeof ack.text === 'string')
        slack.postEphemeral(as, SANDBOX_CHANNEL.id, ack.text, { blocks: Array.isArray(ack.blocks) ? ack.blocks : [] });
      tellFailure(as, 'command', r);
      return { status: r.status };
    },
    'POST /api/home': async (b) => {
      // The Home tab opened: Slack sends the app an app_home_opened event; the bot answers with views.publish.
      const as = personOf(b.as).id;
      const r = await session.send(createAppHomeOpenedBody({ user: as }));
      tellFailure(as, 'Home tab', r);
      return { status: r.status };
    },
    'POST /api/action': async (b) => {
      const as = personOf(b.as).id;
      if (typeof b.homeId === 'string') {
        // A click in the person's Home view: no channel, message or response_url, as in Slack.
        const home = slack.homeFor(as);
        if (!home || home.id !== b.homeId) throw new PageError(404, 'that Home view is gone');
        const element = findButton(
          (home.view.blocks ?? []) as unknown[],
          idOf(b.blockId),
          idOf(b.actionId),
          typeof b.value === 'string' ? b.value : undefined,
        );
        if (!element) throw new PageError(404, 'that button is gone (the Home view was published again)');
        const r = await session.send(
          createBlockActionBody({
            user: as,
            home: { id: home.id, view: home.view },
            action: element,
            triggerId: slack.newTriggerId(as),
          }),
        );
        tellFailure(as, 'click', r);
        return { status: r.status };
      }
      const message = slack.findMessage(idOf(b.ts));
      if (!message || (message.ephemeralFor && message.ephemeralFor !== as))
        throw new PageError(404, 'that message is gone');
      const element = findButton(
        message.blocks,
        idOf(b.blockId),
        idOf(b.actionId),
        typeof b.value === 'string' ? b.value : undefined,
      );
      if (!element) throw new PageError(404, 'that button is gone (the message was edited)');
      const body = createBlockActionBody({
        user: as,
        message: {
          ts: message.ts,
          threadTs: message.threadTs,
          text: message.text,
          blocks: message.blocks,
          ephemeral: Boolean(message.ephemeralFor),
        },
        action: element,
        responseUrl: slack.newResponseUrl({ user: as, channel: SANDBOX_CHANNEL.id, messageTs: message.ts }),
        triggerId: slack.newTriggerId(as),
      });
      const r = await session.send(body);
      tellFailure(as, 'click', r);
      return { status: r.status };
    },
    'POST /api/view': async (b) => {
      const as = personOf(b.as).id;
      const view = slack.findView(idOf(b.viewId));
      if (!view || view.user !== as) throw new PageError(404, 'that dialog is closed');
      const values = (typeof b.values === 'object' && b.values ? b.values : {}) as Record<
        string,
        Record<string, string>
      >;
      const r = await session.send(
        createViewSubmissionBody({
          user: as,
          viewId: view.id,
          view: view.view,
          values,
          triggerId: slack.newTriggerId(as),
        }),
      );
      const answer = parseJson(r.body);
      // `response_action: errors` keeps the modal open with the errors under their inputs (Slack's behaviour).
      if (
        r.status === 200 &&
        answer?.response_action === 'errors' &&
        typeof answer.errors === 'object' &&
        answer.errors
      )
        slack.setViewErrors(view.id, answer.errors as Record<string, string>);
      else if (r.status === 200) slack.closeView(view.id);
      else slack.setViewErrors(view.id, { _: `k8s-health did not handle this (HTTP ${r.status})` });
      return { status: r.status };
    },
    'POST /api/view/close': async (b) => {
      const as = personOf(b.as).id;
      const view = slack.findView(idOf(b.viewId));
      if (view && view.user === as) slack.closeView(view.id);
      return {};
    },
    'POST /api/next-scan': async () =>
      exclusive('Scanning…', async () => {
        try {
          await session.nextScan();
          notice = undefined;
        } catch (err) {
          notice = `The scan failed: ${describeError(err)}`;
        }
      }),
    'POST /api/prometheus-alerts': async () =>
      exclusive('Alertmanager is sending…', async () => {
        try {
          const r = await session.sendPrometheusAlerts();
          notice = r.status === 200 ? undefined : `Alertmanager's webhook was answered ${r.status}`;
        } catch (err) {
          notice = `Alertmanager's webhook failed: ${describeError(err)}`;
        }
      }),
    'POST /api/scenario': async (b) => {
      const scenario = scenarios.find((s) => s.name === b.name);
      if (!scenario) throw new PageError(400, `unknown scenario ${JSON.stringify(b.name)}`);
      await restart(scenario);
      return {};
    },
    'POST /api/reset': async () => {
      await restart(session.scenario);
      return {};
    },
  };

  let port = 0;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: Buffer | string, type: string) => {
      res.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS });
      res.end(body);
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The same checks as every sandbox port (refuse-foreign-request.ts); POSTs are checked below, past the 404.
    const foreign = refuseForeignRequest(req, port, { jsonPosts: false });
    if (foreign?.status === 421)
      return send(421, 'wrong host: open the URL k8s-health sandbox printed\n', 'text/plain; charset=utf-8');
    if (foreign) return send(foreign.status, `${foreign.message}\n`, 'text/plain; charset=utf-8');
    if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html'))
      return send(200, assets.get('index.html')!, CONTENT_TYPES['.html']!);
    if (req.method === 'GET' && url.pathname.startsWith('/assets/')) {
      const name = url.pathname.slice('/assets/'.length);
      const file = assets.get(name);
      return file
        ? send(200, file, CONTENT_TYPES[path.extname(name)]!)
        : send(404, 'not found\n', 'text/plain; charset=utf-8');
    }
    const handler = api[`${req.method} ${url.pathname}`];
    if (!handler) return send(404, 'not found\n', 'text/plain; charset=utf-8');
    if (refuseForeignRequest(req, port, { jsonPosts: true }))
      return send(415, JSON.stringify({ error: 'send JSON' }), 'application/json');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = req.method === 'POST' ? (parseJson(Buffer.concat(chunks).toString('utf8')) ?? {}) : {};
      handler(body, url).then(
        (out) => send(200, JSON.stringify(out ?? {}), 'application/json'),
        (err: unknown) => {
          const status = err instanceof PageError ? err.status : 500;
          if (status === 500) opts.log.error({ err }, 'sandbox page: request failed');
          send(status, JSON.stringify({ error: describeError(err) }), 'application/json');
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  }).catch(async (err: unknown) => {
    await session.stop();
    throw err;
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    get session() {
      return session;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      await session.stop();
    },
  };
}

/**
 * The element clicked, as it is in the message now: a button, or a static select or overflow menu with
 * the option the page chose (`value`, which must be one of its options: the page sends only what the
 * message offers).
 */
function findButton(blocks: unknown[], blockId: string, actionId: string, chosen?: string): ClickedElement | undefined {
  for (const b of blocks as Array<{ type?: string; block_id?: string; elements?: unknown[]; accessory?: unknown }>) {
    const elements =
      b.type === 'actions' ? (b.elements ?? []) : b.type === 'section' && b.accessory ? [b.accessory] : [];
    if ((b.block_id ?? '') !== blockId) continue;
    for (const e of elements as Array<{
      type?: string;
      action_id?: string;
      value?: string;
      text?: { text?: string };
      style?: string;
      options?: Array<{ value?: string; text?: { text?: string } }>;
    }>) {
      if (e.action_id !== actionId) continue;
      if (e.type === 'button') return { actionId, blockId, value: e.value, text: e.text?.text ?? '', style: e.style };
      if (e.type === 'static_select' || e.type === 'overflow') {
        const option = (e.options ?? []).find((o) => chosen !== undefined && o.value === chosen);
        if (option)
          return {
            actionId,
            blockId,
            text: option.text?.text ?? '',
            selected: { value: String(option.value), text: option.text?.text ?? '' },
            menu: e.type,
          };
      }
    }
  }
  return undefined;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** An id the page sends (a message ts, a block, action or view id): a string, or none at all. */
function idOf(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
