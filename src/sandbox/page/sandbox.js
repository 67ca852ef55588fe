// The sandbox page: reads the simulated #incident channel from the sandbox (long polling) and sends
// what the person you act as does: a slash command, a click, a submitted modal, opening the Home tab —
// the sandbox signs each as Slack would and posts it to the bot. Plain DOM; nothing is loaded from anywhere else.
import { el, renderBlock, renderBlocks, renderText } from './block-kit.js';

const $ = (id) => document.getElementById(id);

/**
 * A dialog from the page's one skeleton (index.html #dialog-skeleton), its parts named `${id}-title`,
 * `${id}-${body}`, `${id}-${secondary}`, `${id}-${primary}` (the ids the code and the tour use). A confirm
 * closes through its form (method dialog: each button submits its value) and has no ×; a modal keeps
 * its ×, and its form is submitted by the code.
 */
function makeDialog(id, { body, secondary, primary, confirm }) {
  const d = $('dialog-skeleton').content.firstElementChild.cloneNode(true);
  const part = (sel, name) => Object.assign(d.querySelector(sel), { id: `${id}-${name}` });
  d.id = id;
  d.setAttribute('aria-labelledby', `${id}-title`);
  part('.dialog-title', 'title');
  part('.dialog-body', body);
  const [no, yes] = [part('[data-part="secondary"]', secondary), part('[data-part="primary"]', primary)];
  if (confirm) {
    d.querySelector('form').method = 'dialog';
    d.querySelector('[data-part="x"]').remove();
    Object.assign(no, { type: 'submit', value: 'deny' });
    Object.assign(yes, { type: 'submit', value: 'confirm' });
  } else {
    part('form', 'form');
    part('[data-part="x"]', 'x');
    d.classList.add('dialog-modal');
    d.querySelector('.dialog-body').classList.add('dialog-scroll');
    Object.assign(no, { type: 'button' });
    Object.assign(yes, { type: 'submit' });
  }
  document.body.append(d);
  return d;
}
makeDialog('confirm', { body: 'text', secondary: 'deny', primary: 'ok', confirm: true });
makeDialog('modal', { body: 'body', secondary: 'close', primary: 'submit' });

const ui = {
  person: $('person'),
  scenario: $('scenario'),
  play: $('play'),
  nextScan: $('next-scan'),
  prometheus: $('prometheus'),
  reset: $('reset'),
  clock: $('clock'),
  step: $('step'),
  status: $('status'),
  title: $('scenario-title'),
  messages: $('messages'),
  composer: $('composer'),
  input: $('composer-input'),
  thread: $('thread'),
  threadMessages: $('thread-messages'),
  threadClose: $('thread-close'),
  confirm: $('confirm'),
  modal: $('modal'),
  modalForm: $('modal-form'),
  channel: $('channel'),
  home: $('home'),
  homeView: $('home-view'),
  homeTopic: $('home-topic'),
  tabChannel: $('tab-channel'),
  tabHome: $('tab-home'),
};

let state = null;
let as = sessionStorage.getItem('sandbox-as') || 'U0PAT';
let openThread = null;
let poll = null;
let shownViewId = null;
/** The Home tab is what the page shows (instead of #incident). */
let homeShown = false;
/** Scroll positions of the channel and the thread when Home opened. */
let channelScroll = [0, 0];

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: method === 'GET' ? poll?.signal : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

function say(text) {
  ui.status.textContent = text;
}

/** Send something and report failures in the status line (the result itself arrives through the channel). */
// Never rejects: a failure is shown in the status line, so callers need not await it.
async function act(what, f) {
  try {
    say(what);
    await f();
    if (ui.status.textContent === what) say('');
  } catch (err) {
    say(`${what.replace(/…$/, '')} failed: ${err.message}`);
  }
}

function peopleById() {
  return Object.fromEntries((state?.people ?? []).map((p) => [p.id, p]));
}

function context(message) {
  return {
    people: peopleById(),
    channel: state.channel,
    now: new Date(state.now),
    messageTs: message.ts,
    onClick: (element, block, value) =>
      act('Sending the click…', () =>
        api('POST', '/api/action', {
          as,
          ts: message.ts,
          blockId: block.block_id,
          actionId: element.action_id,
          ...(value !== undefined ? { value } : {}),
        }),
      ),
    confirm: confirmDialog,
  };
}

function confirmDialog(c) {
  return new Promise((resolve) => {
    $('confirm-title').textContent = c.title?.text ?? 'Are you sure?';
    $('confirm-text').replaceChildren(
      ...renderText(c.text, { people: peopleById(), channel: state.channel, now: new Date(state.now) }),
    );
    $('confirm-ok').textContent = c.confirm?.text ?? 'Yes';
    $('confirm-ok').className = `bk-button ${c.style === 'danger' ? 'bk-button-danger' : 'bk-button-primary'}`;
    $('confirm-deny').textContent = c.deny?.text ?? 'Cancel';
    ui.confirm.returnValue = '';
    ui.confirm.addEventListener('close', () => resolve(ui.confirm.returnValue === 'confirm'), { once: true });
    ui.confirm.showModal();
  });
}

/** Message time from its ts, in the viewer's zone. */
function timeOf(ts) {
  const d = new Date(Number(ts.split('.')[0]) * 1000);
  return {
    iso: d.toISOString(),
    text: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(d),
  };
}

function renderMessage(m, replies) {
  const people = peopleById();
  const author = m.user === state.bot.id ? state.bot.name : (people[m.user]?.name ?? m.user);
  const t = timeOf(m.ts);
  const head = el(
    'div',
    { class: 'msg-head' },
    el('span', { class: 'msg-author', text: author }),
    m.user === state.bot.id ? el('span', { class: 'msg-app', text: 'APP' }) : undefined,
    el('time', { class: 'msg-time', datetime: t.iso, title: t.iso, text: t.text }),
    m.edited ? el('span', { class: 'msg-edited', text: '(edited)' }) : undefined,
    m.ephemeral ? el('span', { class: 'msg-ephemeral', text: 'Only visible to you' }) : undefined,
  );
  const replyButton = replies?.length
    ? el(
        'button',
        {
          type: 'button',
          class: 'msg-replies',
          'data-key': `thread|${m.ts}`,
          'aria-expanded': openThread === m.ts ? 'true' : 'false',
          onclick: () => showThread(m.ts),
        },
        `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
        el('span', { class: 'msg-replies-last', text: ` · last reply ${timeOf(replies[replies.length - 1].ts).text}` }),
      )
    : undefined;
  return el(
    'li',
    { class: `msg${m.ephemeral ? ' msg-is-ephemeral' : ''}`, 'data-ts': m.ts },
    el('div', { class: 'msg-avatar', 'aria-hidden': 'true', text: author.slice(0, 1).toUpperCase() }),
    el('div', { class: 'msg-main' }, head, el('div', { class: 'msg-body' }, renderBlocks(m, context(m))), replyButton),
  );
}

function showThread(ts) {
  openThread = ts;
  render();
  ui.thread.hidden = false;
  ui.threadClose.focus();
}

/**
 * The Home tab of the person acted as: the view the bot last published for them (views.publish), drawn
 * by the same Block Kit renderer; its buttons are clicks in a Home view (no channel, no message).
 */
function renderHome() {
  ui.tabChannel.setAttribute('aria-pressed', String(!homeShown));
  ui.tabHome.setAttribute('aria-pressed', String(homeShown));
  ui.channel.hidden = homeShown;
  ui.home.hidden = !homeShown;
  if (homeShown) ui.thread.hidden = true;
  if (!homeShown) return;
  const me = peopleById()[as];
  ui.homeTopic.textContent = `What ${me?.realName ?? as} sees on the bot's Home tab: the clusters they may query and the approvals waiting on them.`;
  const h = state.home;
  if (!h) {
    ui.homeView.replaceChildren(
      el('p', { class: 'home-empty', text: 'Opening Home… (the bot publishes it when the tab opens)' }),
    );
    return;
  }
  const ctx = {
    people: peopleById(),
    channel: state.channel,
    now: new Date(state.now),
    messageTs: `home|${h.id}`,
    onClick: (element, block, value) =>
      act('Sending the click…', () =>
        api('POST', '/api/action', {
          as,
          homeId: h.id,
          blockId: block.block_id,
          actionId: element.action_id,
          ...(value !== undefined ? { value } : {}),
        }),
      ),
    confirm: confirmDialog,
  };
  ui.homeView.replaceChildren(...(h.view.blocks ?? []).map((b) => renderBlock(b, ctx)));
}

/** Show the Home tab: Slack sends the bot app_home_opened (signed, through the sandbox) each time it opens. */
function openHome() {
  if (!homeShown) channelScroll = [ui.messages.scrollTop, ui.threadMessages.scrollTop];
  homeShown = true;
  if (state) render();
  void act('Opening Home…', () => api('POST', '/api/home', { as }));
}

function showChannel() {
  if (!homeShown) return;
  homeShown = false;
  if (state) render();
  // Where the channel and its thread were scrolled when Home opened (hiding them lost it).
  [ui.messages.scrollTop, ui.threadMessages.scrollTop] = channelScroll;
}

/** Re-render everything, keeping keyboard focus on the same control and the scroll at the bottom when it was. */
function render() {
  const focusKey = document.activeElement?.getAttribute?.('data-key');
  const atBottom = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const stick = atBottom(ui.messages);
  const stickThread = atBottom(ui.threadMessages);

  const top = state.messages.filter((m) => !m.threadTs);
  const repliesOf = (ts) => state.messages.filter((m) => m.threadTs === ts);
  ui.messages.replaceChildren(...top.map((m) => renderMessage(m, repliesOf(m.ts))));
  if (!top.length)
    ui.messages.append(
      el('li', { class: 'msg-empty', text: 'Nothing here yet: type a command below, or wait for the first scan.' }),
    );
  if (homeShown) {
    // The channel is hidden behind Home: its open thread stays open for when it comes back.
  } else if (openThread && state.messages.some((m) => m.ts === openThread)) {
    const parent = state.messages.find((m) => m.ts === openThread);
    ui.threadMessages.replaceChildren(
      renderMessage(parent),
      el('li', { class: 'thread-sep', text: `${repliesOf(openThread).length} replies` }),
      ...repliesOf(openThread).map((m) => renderMessage(m)),
    );
    ui.thread.hidden = false;
  } else {
    openThread = null;
    ui.thread.hidden = true;
  }
  if (stick && !homeShown) ui.messages.scrollTop = ui.messages.scrollHeight;
  if (stickThread && !homeShown) ui.threadMessages.scrollTop = ui.threadMessages.scrollHeight;
  if (focusKey) document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();

  const clock = new Date(state.now);
  ui.clock.textContent = `Cluster time: ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(clock)}`;
  ui.step.textContent = state.scenario.steps > 1 ? `· step ${state.scenario.step} of ${state.scenario.steps}` : '';
  ui.title.textContent = `${state.scenario.name}: ${state.scenario.title}`;
  if (state.busy) say(state.busy);
  else if (state.notice) say(state.notice);
  for (const b of [ui.play, ui.nextScan, ui.prometheus, ui.reset]) b.disabled = Boolean(state.busy);
  renderHome();
  renderModal();
}

function renderControls() {
  ui.person.replaceChildren(
    ...state.people.map((p) => el('option', { value: p.id, selected: p.id === as }, `${p.realName} — @${p.name}`)),
  );
  ui.scenario.replaceChildren(
    ...state.scenarios.map((s) =>
      el(
        'option',
        { value: s.name, selected: s.name === state.scenario.name },
        `${s.live ? '★ ' : ''}${s.name}${s.steps > 1 ? ` (${s.steps} scans)` : ''}`,
      ),
    ),
  );
}

function renderModal() {
  const v = state.view;
  if (!v) {
    shownViewId = null;
    if (ui.modal.open) ui.modal.close();
    return;
  }
  const view = v.view;
  const errorsChanged = ui.modal.dataset.errors !== JSON.stringify(v.errors ?? null);
  if (shownViewId === v.id && !errorsChanged) return;
  // Keep what was typed when the errors come back.
  const typed = Object.fromEntries(
    [...ui.modal.querySelectorAll('.bk-input')].map((i) => [`${i.dataset.blockId}|${i.dataset.actionId}`, i.value]),
  );
  $('modal-title').textContent = view.title?.text ?? '';
  const ctx = {
    people: peopleById(),
    channel: state.channel,
    now: new Date(state.now),
    errors: v.errors ?? {},
    messageTs: v.id,
    onClick: () => undefined,
    confirm: async () => false,
  };
  $('modal-body').replaceChildren(
    ...(view.blocks ?? []).map((b) => renderBlock(b, ctx)),
    ...(v.errors?._ ? [el('div', { class: 'bk-error', role: 'alert', text: v.errors._ })] : []),
  );
  for (const i of ui.modal.querySelectorAll('.bk-input'))
    i.value = typed[`${i.dataset.blockId}|${i.dataset.actionId}`] ?? '';
  $('modal-submit').textContent = view.submit?.text ?? 'Submit';
  $('modal-close').textContent = view.close?.text ?? 'Cancel';
  ui.modal.dataset.errors = JSON.stringify(v.errors ?? null);
  shownViewId = v.id;
  if (!ui.modal.open) ui.modal.showModal();
  (ui.modal.querySelector('[aria-invalid="true"]') ?? ui.modal.querySelector('.bk-input'))?.focus();
}

ui.modalForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const values = {};
  for (const i of ui.modal.querySelectorAll('.bk-input'))
    (values[i.dataset.blockId] ??= {})[i.dataset.actionId] = i.value;
  void act('Submitting…', () => api('POST', '/api/view', { as, viewId: state.view.id, values }));
});
const closeModal = () =>
  state?.view && act('Closing…', () => api('POST', '/api/view/close', { as, viewId: state.view.id }));
$('modal-close').addEventListener('click', closeModal);
$('modal-x').addEventListener('click', closeModal);
ui.modal.addEventListener('cancel', (e) => {
  e.preventDefault(); // Escape: close through the sandbox, so the view is gone there too
  closeModal();
});

ui.composer.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = ui.input.value;
  ui.input.value = '';
  void act(`Sending /k8s-health ${text}…`.replace(/\s+…$/, '…'), () => api('POST', '/api/command', { as, text }));
});
ui.person.addEventListener('change', () => {
  as = ui.person.value;
  sessionStorage.setItem('sandbox-as', as);
  restartPolling();
  // Another person's Home: it opens for them (the bot publishes theirs).
  if (homeShown) openHome();
});
ui.tabHome.addEventListener('click', openHome);
ui.tabChannel.addEventListener('click', showChannel);
ui.play.addEventListener('click', () =>
  act(`Starting ${ui.scenario.value}…`, () => api('POST', '/api/scenario', { name: ui.scenario.value })),
);
ui.nextScan.addEventListener('click', () => act('Scanning…', () => api('POST', '/api/next-scan', {})));
ui.prometheus.addEventListener('click', () =>
  act('Alertmanager is sending…', () => api('POST', '/api/prometheus-alerts', {})),
);
ui.reset.addEventListener('click', () => act('Resetting…', () => api('POST', '/api/reset', {})));
ui.threadClose.addEventListener('click', () => {
  const back = openThread;
  openThread = null;
  render();
  document.querySelector(`[data-key="thread|${CSS.escape(back ?? '')}"]`)?.focus();
});

async function loop() {
  const mine = poll;
  let since = -1;
  let scenario = null;
  while (poll === mine) {
    try {
      const next = await api('GET', `/api/state?as=${encodeURIComponent(as)}&since=${since}`);
      if (poll !== mine) return;
      state = next;
      since = next.version;
      if (scenario !== `${next.scenario.name}|${as}`) {
        scenario = `${next.scenario.name}|${as}`;
        renderControls();
      }
      render();
      document.body.dataset.version = String(next.version);
    } catch (err) {
      if (poll !== mine || err.name === 'AbortError') return;
      say(`Lost the sandbox (${err.message}); retrying…`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

function restartPolling() {
  poll?.abort();
  poll = new AbortController();
  void loop(); // runs until the next restart aborts it; it shows its own failures and retries
}

restartPolling();
