// Block Kit → DOM, close enough to Slack's own rendering to judge a message by
// (api.slack.com/reference/block-kit/blocks): header, section (text, fields, button accessory),
// context, divider, actions (buttons with primary/danger styles and confirm dialogs), input (modals),
// image (alt text only: the page loads nothing from elsewhere), rich_text (text, links, dates, mentions).
// Every string goes in through textContent: nothing from the bot or a cluster is parsed as HTML.
import { EMOJI, formatSlackDate, parseMrkdwn } from './mrkdwn.js';

/** Create an element with a class and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) node.append(c);
  return node;
}

/**
 * Render mrkdwn into DOM nodes. `ctx`: { people (id → {name}), channel, now (sandbox clock) }.
 */
export function renderMrkdwn(text, ctx) {
  return parseMrkdwn(text).map((n) => renderNode(n, ctx));
}

function renderNode(n, ctx) {
  const kids = (c) => c.map((x) => renderNode(x, ctx));
  switch (n.t) {
    case 'text':
      return document.createTextNode(n.v);
    case 'br':
      return el('br');
    case 'b':
      return el('strong', {}, kids(n.c));
    case 'i':
      return el('em', {}, kids(n.c));
    case 's':
      return el('del', {}, kids(n.c));
    case 'code':
      return el('code', { class: 'bk-code', text: n.v });
    case 'pre':
      return el('pre', { class: 'bk-pre', text: n.v });
    case 'quote':
      return el('blockquote', { class: 'bk-quote' }, kids(n.c));
    case 'emoji':
      return el('span', { class: 'bk-emoji', role: 'img', 'aria-label': n.name.replace(/_/g, ' '), text: n.v });
    case 'user': {
      const p = ctx.people?.[n.id];
      return el('span', { class: 'bk-mention', text: `@${p ? p.name : (n.label ?? n.id)}` });
    }
    case 'channel':
      return el('span', {
        class: 'bk-mention',
        text: `#${n.label ?? (ctx.channel?.id === n.id ? ctx.channel.name : n.id)}`,
      });
    case 'group':
      return el('span', { class: 'bk-mention', text: n.label ?? `@${n.id}` });
    case 'special':
      return el('span', { class: 'bk-mention bk-special', text: `@${n.v}` });
    case 'date': {
      const shown = formatSlackDate(n.ts, n.format, ctx.now);
      const iso = Number.isFinite(n.ts) ? new Date(n.ts * 1000).toISOString() : undefined;
      return el('time', { class: 'bk-date', datetime: iso, title: iso, text: shown ?? n.fallback });
    }
    case 'link':
      // Links are shown, not followed: the sandbox makes no request outside this machine.
      return el('span', { class: 'bk-link', title: n.url }, kids(n.c));
    default:
      return document.createTextNode('');
  }
}

/** A text object: mrkdwn, or plain_text (whose :emoji: Slack replaces when `emoji` is not false). */
export function renderText(obj, ctx) {
  if (!obj) return [];
  if (obj.type === 'mrkdwn') return renderMrkdwn(obj.text, ctx);
  const t = String(obj.text ?? '');
  return [
    document.createTextNode(
      obj.emoji === false ? t : t.replace(/:([a-z0-9_+-]+):/g, (all, name) => EMOJI[name] ?? all),
    ),
  ];
}

function plain(obj) {
  return String(obj?.text ?? '');
}

/**
 * A button: `onClick(element, block)` when pressed, through its confirm dialog when it has one.
 * `key` identifies it across re-renders (focus is kept on the same button).
 */
function renderButton(e, block, ctx) {
  const style = e.style === 'primary' || e.style === 'danger' ? ` bk-button-${e.style}` : '';
  const key = `${ctx.messageTs}|${block.block_id ?? ''}|${e.action_id ?? ''}`;
  return el(
    'button',
    {
      type: 'button',
      class: `bk-button${style}`,
      'data-key': key,
      'data-action-id': e.action_id ?? '',
      onclick: () =>
        e.confirm ? ctx.confirm(e.confirm).then((ok) => ok && ctx.onClick(e, block)) : ctx.onClick(e, block),
    },
    renderText(e.text, ctx),
  );
}

function renderElement(e, block, ctx) {
  if (e.type === 'button') return renderButton(e, block, ctx);
  if (e.type === 'static_select') return renderSelect(e, block, ctx);
  // An overflow menu is a "⋯" that opens its options; choosing one is the interaction, as a select's is.
  if (e.type === 'overflow')
    return renderSelect(
      { ...e, placeholder: { type: 'plain_text', text: '⋯' } },
      block,
      ctx,
      'More options',
      ' bk-overflow',
    );
  if (e.type === 'image') return el('span', { class: 'bk-image-alt', text: `[image: ${e.alt_text ?? ''}]` });
  if (e.type === 'mrkdwn' || e.type === 'plain_text') return el('span', {}, renderText(e, ctx));
  return el('span', { class: 'bk-unsupported', text: `[${e.type} not shown in the sandbox]` });
}

/**
 * A static select (e.g. an alert thread's Snooze): a native <select> whose first option is the
 * placeholder; choosing an option is the interaction (`onClick(element, block, value)`), as in Slack.
 */
function renderSelect(e, block, ctx, label, extraClass = '') {
  const key = `${ctx.messageTs}|${block.block_id ?? ''}|${e.action_id ?? ''}`;
  const placeholder = plain(e.placeholder) || 'Choose';
  const select = el(
    'select',
    {
      class: `bk-button bk-select${extraClass}`,
      'data-key': key,
      'data-action-id': e.action_id ?? '',
      onchange: (ev) => {
        const value = ev.target.value;
        if (!value) return;
        const send = () => ctx.onClick(e, block, value);
        e.confirm ? ctx.confirm(e.confirm).then((ok) => ok && send()) : send();
      },
    },
    [
      el('option', { value: '', text: placeholder }),
      ...(e.options ?? []).map((o) => el('option', { value: String(o.value ?? ''), text: plain(o.text) })),
    ],
  );
  // A real <label> (read by screen readers; the placeholder option shows the same words on screen).
  return el(
    'label',
    { class: 'bk-select-label' },
    el('span', { class: 'bk-visually-hidden', text: label ?? placeholder }),
    select,
  );
}

function renderRichText(block, ctx) {
  const inline = (els) =>
    (els ?? []).map((x) => {
      if (x.type === 'text') {
        const node = document.createTextNode(x.text ?? '');
        if (x.style?.code) return el('code', { class: 'bk-code' }, node);
        if (x.style?.bold) return el('strong', {}, node);
        if (x.style?.italic) return el('em', {}, node);
        return node;
      }
      if (x.type === 'link') return el('span', { class: 'bk-link', title: x.url, text: x.text ?? x.url });
      if (x.type === 'date')
        return renderNode({ t: 'date', ts: x.timestamp, format: x.format ?? '', fallback: x.fallback ?? '' }, ctx);
      if (x.type === 'user') return renderNode({ t: 'user', id: x.user_id }, ctx);
      if (x.type === 'emoji') return document.createTextNode(EMOJI[x.name] ?? `:${x.name}:`);
      return document.createTextNode('');
    });
  return el(
    'div',
    { class: 'bk-rich' },
    (block.elements ?? []).map((s) => {
      if (s.type === 'rich_text_preformatted') return el('pre', { class: 'bk-pre' }, inline(s.elements));
      if (s.type === 'rich_text_quote') return el('blockquote', { class: 'bk-quote' }, inline(s.elements));
      if (s.type === 'rich_text_list')
        return el(
          s.style === 'ordered' ? 'ol' : 'ul',
          {},
          (s.elements ?? []).map((li) => el('li', {}, inline(li.elements))),
        );
      return el('div', {}, inline(s.elements));
    }),
  );
}

/** One block. `ctx` adds: onClick(element, block), confirm(dialog) → Promise<boolean>, messageTs, errors (inputs). */
export function renderBlock(block, ctx) {
  switch (block.type) {
    case 'header':
      return el('div', { class: 'bk-header', role: 'heading', 'aria-level': '3' }, renderText(block.text, ctx));
    case 'section': {
      const body = el('div', { class: 'bk-section-body' });
      if (block.text) body.append(el('div', { class: 'bk-text' }, renderText(block.text, ctx)));
      if (block.fields?.length)
        body.append(
          el(
            'div',
            { class: 'bk-fields' },
            block.fields.map((f) => el('div', { class: 'bk-field' }, renderText(f, ctx))),
          ),
        );
      const accessory = block.accessory
        ? el('div', { class: 'bk-accessory' }, renderElement(block.accessory, block, ctx))
        : undefined;
      return el('div', { class: 'bk-section' }, body, accessory);
    }
    case 'context':
      return el(
        'div',
        { class: 'bk-context' },
        (block.elements ?? []).map((e) => renderElement(e, block, ctx)),
      );
    case 'divider':
      return el('hr', { class: 'bk-divider' });
    case 'actions':
      return el(
        'div',
        { class: 'bk-actions', role: 'group', 'aria-label': 'Actions' },
        (block.elements ?? []).map((e) => renderElement(e, block, ctx)),
      );
    case 'image':
      return el('div', { class: 'bk-image-alt', text: `[image: ${block.alt_text ?? ''}]` });
    case 'rich_text':
      return renderRichText(block, ctx);
    case 'input': {
      const e = block.element ?? {};
      const id = `input-${block.block_id}-${e.action_id}`;
      const error = ctx.errors?.[block.block_id];
      const field = e.multiline
        ? el('textarea', {
            id,
            class: 'bk-input',
            'data-block-id': block.block_id,
            'data-action-id': e.action_id,
            'aria-invalid': error ? 'true' : undefined,
            'aria-describedby': error ? `${id}-error` : undefined,
          })
        : el('input', {
            id,
            type: 'text',
            class: 'bk-input',
            autocomplete: 'off',
            'data-block-id': block.block_id,
            'data-action-id': e.action_id,
            placeholder: plain(e.placeholder) || undefined,
            'aria-invalid': error ? 'true' : undefined,
            'aria-describedby': error ? `${id}-error` : undefined,
          });
      return el(
        'div',
        { class: 'bk-input-block' },
        el('label', { for: id, class: 'bk-label' }, renderText(block.label, ctx)),
        field,
        block.hint ? el('div', { class: 'bk-hint' }, renderText(block.hint, ctx)) : undefined,
        error ? el('div', { id: `${id}-error`, class: 'bk-error', role: 'alert', text: error }) : undefined,
      );
    }
    default:
      return el('div', { class: 'bk-unsupported', text: `[${block.type} block not shown in the sandbox]` });
  }
}

/** A message's blocks, or its text when it has none (as Slack falls back). */
export function renderBlocks(message, ctx) {
  if (!message.blocks?.length) return [el('div', { class: 'bk-text' }, renderMrkdwn(message.text, ctx))];
  return message.blocks.map((b) => renderBlock(b, ctx));
}
