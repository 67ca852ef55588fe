// A whole incident played in the sandbox page by a real (headless) Chromium: used by the browser test
// (test/e2e/sandbox-browser.test.ts, which asserts on what each step returns) and by
// `npm run screenshots` (scripts/screenshots.js, which saves a picture at each step for docs/slack.md).
// Each step waits for what the page must show next and throws, naming it, when it never shows.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

/** Debian's Chromium (scripts/preflight.js installs the `chromium` package). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless Chromium with a fresh profile, nothing phoning home. Returns { context, page, close }. */
export async function launchBrowser(opts = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'k8s-health-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: opts.viewport ?? { width: 1360, height: 900 },
    timezoneId: opts.timezoneId ?? 'UTC',
    locale: opts.locale ?? 'en-US',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Spawn the built `k8s-health sandbox` and resolve once it printed its URL. */
export async function startSandboxProcess(opts = {}) {
  const child = spawn(process.execPath, ['bin/k8s-health.js', 'sandbox', ...(opts.args ?? [])], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...(opts.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
    if (m)
      return {
        url: m[1],
        child,
        exit,
        get stdout() {
          return stdout;
        },
        get stderr() {
          return stderr;
        },
      };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(
        `k8s-health sandbox did not start (exit ${child.exitCode})\nstdout: ${stdout}\nstderr: ${stderr}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

const CLUSTER = 'prod-east';
const WEBHOOK_ALERT = `${CLUSTER}: Webhook kyverno-resource-validating-webhook-cfg refuses pods`;
/** "Next scan" clicks after the fix within which every alert thread must have resolved. */
export const MAX_RESOLUTION_STEPS = 10;
const FIX = 'Suspend webhook kyverno-resource-validating-webhook-cfg';

/** The channel's top-level message containing `text` (a Playwright locator). */
const message = (page, text) => page.locator('#messages > li.msg', { hasText: text });
const threadMessage = (page, text) => page.locator('#thread-messages > li.msg', { hasText: text });

/* global document, getComputedStyle -- these callbacks run inside the page, not in Node:
   isChannelQuiet, linesOfMessage and the waitForFunction callbacks. */

/** Runs in the page: true once the channel's version has not changed for `ms` (long polling keeps it current). */
function isChannelQuiet(ms) {
  const v = document.body.dataset.version;
  if (globalThis.quietVersion !== v) {
    globalThis.quietVersion = v;
    globalThis.quietSince = Date.now();
    return false;
  }
  return Date.now() - globalThis.quietSince >= ms;
}

/**
 * Headers of the channel's alert messages of the cluster: top-level messages whose header names it
 * (resolved ones start with "✅ Resolved · "), not answers to a command (those say who asked).
 */
async function alertHeaders(page) {
  return page.locator('#messages > li.msg').evaluateAll(
    (lis, cluster) =>
      lis
        .filter((li) => {
          const h = li.querySelector('.bk-header')?.textContent ?? '';
          return (
            (h.startsWith(`${cluster}: `) || h.includes(` · ${cluster}: `)) && !li.textContent.includes('asked by')
          );
        })
        .map((li) => li.querySelector('.bk-header').textContent),
    CLUSTER,
  );
}

/** Alert threads not resolved yet (their headers). */
async function openAlerts(page) {
  return (await alertHeaders(page)).filter((h) => !h.includes('Resolved'));
}

/** Click Approve on the request and confirm it in Slack's confirm dialog (Approve has one). */
async function approve(page, request) {
  await request.getByRole('button', { name: 'Approve' }).click();
  await page.locator('#confirm-ok').click();
}

async function actAs(page, id) {
  await page.selectOption('#person', id);
  await page.locator('#person').evaluate((s, v) => s.value === v, id);
}

/**
 * The incident: alert threads open from the first scan; Pat asks /k8s-health and gets the answer
 * card; Pat proposes the fix from the webhook's alert; Pat's own approval is refused; Uma (not an
 * approver) is refused; Ann approves; Ben's Home tab shows the request waiting on him; Ben approves,
 * is asked to type the cluster name, types it wrong and then right; the fix runs against the
 * simulated API server; "next scan" until every alert thread of the incident resolved (the simulated
 * cluster heals once the webhook is gone), at most MAX_RESOLUTION_STEPS times. `shot(name)` is called at each
 * picture-worthy moment. Returns what each step showed, for the test's assertions.
 */
export async function playIncident(page, url, shot = async () => undefined) {
  const seen = {};
  const t = { timeout: 45_000 };
  await page.goto(url);
  await actAs(page, 'U0PAT');
  await message(page, WEBHOOK_ALERT).first().waitFor(t);
  seen.alerts = await page.locator('#messages > li.msg .bk-header').allInnerTexts();
  await shot('sandbox-alerts');

  // 1. The command, typed with the keyboard.
  await page.focus('#composer-input');
  await page.keyboard.type('prod-east');
  await page.keyboard.press('Enter');
  const answer = message(page, '/k8s-health prod-east asked by @pat');
  await answer.waitFor(t);
  seen.answer = await answer.innerText();
  await page.locator('#messages > li.msg').last().scrollIntoViewIfNeeded();
  await shot('sandbox-answer');

  // 1b. The card's Details: symptoms, evidence and sections, shown to Pat only.
  await answer.getByRole('button', { name: 'Details' }).click();
  const details = message(page, 'prod-east: details');
  await details.waitFor(t);
  seen.details = await details.innerText();
  await details.scrollIntoViewIfNeeded();
  await shot('sandbox-details');

  // 1c. The alert thread's own controls: Pat takes it ("I'm on it"), snoozes it for an
  // hour from the Snooze menu, changes their mind (Unsnooze), and exports the timeline into the thread.
  const alert = message(page, WEBHOOK_ALERT).first();
  await alert.getByRole('button', { name: "I'm on it" }).click();
  await alert.filter({ hasText: 'On it: @pat' }).waitFor(t);
  await alert.getByLabel('Snooze').selectOption({ label: '1 hour' });
  await alert.filter({ hasText: 'Snoozed until' }).waitFor(t);
  seen.snoozed = await alert.innerText();
  await alert.scrollIntoViewIfNeeded();
  await shot('sandbox-snoozed');
  await alert.getByRole('button', { name: 'Unsnooze' }).click();
  await alert.getByLabel('Snooze').waitFor(t);
  seen.unsnoozed = await alert.innerText();
  await alert.getByRole('button', { name: 'Export timeline' }).click();
  await alert.locator('.msg-replies').waitFor(t);
  await alert.locator('.msg-replies').click();
  const timeline = threadMessage(page, 'Incident timeline of');
  await timeline.first().waitFor(t);
  seen.timeline = await timeline.first().innerText();

  // 2. The proposal, from the alert's fix button: posted in that alert's thread.
  await alert.getByRole('button', { name: FIX }).first().click();
  await alert.locator('.msg-replies').waitFor(t);
  await alert.locator('.msg-replies').click();
  // The request message in every state names its blast radius (the result reply does not).
  const request = threadMessage(page, 'Blast radius');
  await request.getByRole('button', { name: 'Approve' }).waitFor(t);
  seen.proposal = await request.innerText();

  // 3. Pat approves their own proposal: refused, only Pat sees why.
  await approve(page, request);
  const selfRefusal = threadMessage(page, 'You proposed this fix: your approval does not count');
  await selfRefusal.waitFor(t);
  seen.selfApproval = await selfRefusal.innerText();
  await shot('sandbox-self-approval');

  // 4. Uma, who is not an approver.
  await actAs(page, 'U0UMA');
  await threadMessage(page, 'You proposed this fix').waitFor({ state: 'detached', ...t });
  await approve(page, request);
  const unauthorized = threadMessage(page, 'You are not an authorized approver');
  await unauthorized.waitFor(t);
  seen.unauthorized = await unauthorized.innerText();

  // 5. Ann approves: 1 of 2.
  await actAs(page, 'U0ANN');
  await approve(page, request);
  await threadMessage(page, 'Your approval is counted: 1 of 2').waitFor(t);
  await request.filter({ hasText: '1 of 2 approvals: @ann' }).waitFor(t);
  seen.firstApproval = await request.innerText();
  await shot('sandbox-first-approval');

  // 5b. Ben's App Home tab while the request waits on him: opening it sends the bot a signed
  // app_home_opened event, the bot publishes Ben's Home (views.publish): the cluster, its state and
  // worst finding, and the approval waiting on Ben. Then back to the channel, its thread still open.
  await actAs(page, 'U0BEN');
  await page.getByRole('button', { name: /^Home\b/ }).click();
  const home = page.locator('#home-view');
  await home.filter({ hasText: 'Waiting on you' }).waitFor(t);
  seen.home = await home.innerText();
  if (!seen.home.includes(CLUSTER) || !seen.home.includes(FIX))
    throw new Error(`the Home view does not show ${CLUSTER} and the approval waiting on Ben:\n${seen.home}`);
  await shot('sandbox-home');
  await page.getByRole('button', { name: '#incident', exact: true }).click();
  await request.getByRole('button', { name: 'Approve' }).waitFor(t);

  // 6. Ben's approval is the last one: confirm by typing the cluster name (a wrong one first).
  await actAs(page, 'U0BEN');
  await approve(page, request);
  const modal = page.locator('#modal');
  await modal.waitFor({ state: 'visible', ...t });
  await page.getByLabel('Cluster name').fill('prod-west');
  await modal.getByRole('button', { name: 'Approve and run' }).click();
  await modal.locator('.bk-error').waitFor(t);
  seen.modalError = await modal.locator('.bk-error').innerText();
  await shot('sandbox-confirm-modal');
  await page.getByLabel('Cluster name').fill('prod-east');
  await modal.getByRole('button', { name: 'Approve and run' }).click();
  await modal.waitFor({ state: 'hidden', ...t });

  // 7. Execution: the request says so in place, the worker reports in the thread.
  await request.filter({ hasText: 'Executed' }).waitFor({ timeout: 60_000 });
  seen.executed = await request.innerText();
  const result = threadMessage(page, 'Backup of');
  await result.first().waitFor(t);
  seen.result = await result.first().innerText();
  // The backup is behind "Show backup" (the reply stays a few lines): shown to the clicker alone.
  await result.first().getByRole('button', { name: 'Show backup' }).click();
  const backup = threadMessage(page, '"kind": "ValidatingWebhookConfiguration"');
  await backup.first().waitFor(t);
  seen.backup = await backup.first().innerText();
  await request.getByText('Executed').first().scrollIntoViewIfNeeded();
  await shot('sandbox-executed');

  // 8. Resolution: the live cluster's controllers catch up once the webhook is gone (the node gets
  // its CNI, the rollout completes: src/sandbox/create-simulated-controllers.ts), and each thread
  // resolves after scans without its finding (scan.resolveAfterScans = 2 in the sandbox). Every
  // alert thread of the incident resolves, the root cause's first.
  seen.openBeforeScans = await openAlerts(page);
  seen.resolutionSteps = 0;
  for (; seen.resolutionSteps < MAX_RESOLUTION_STEPS && (await openAlerts(page)).length; seen.resolutionSteps++) {
    await page.getByRole('button', { name: 'Next scan' }).click();
    await page.waitForFunction(() => !document.getElementById('next-scan').disabled, undefined, t);
    // The notify worker posts at its own pace (one message per 250 ms in the sandbox): wait until
    // the channel has been quiet for a second.
    await page.evaluate(() => void (globalThis.quietVersion = undefined));
    await page.waitForFunction(isChannelQuiet, 1000, { timeout: 30_000, polling: 100 });
  }
  seen.openAfterScans = await openAlerts(page);
  seen.alertThreads = await alertHeaders(page);
  await alert.filter({ hasText: 'Resolved' }).waitFor(t);
  seen.resolved = await alert.innerText();
  seen.thread = await page.locator('#thread-messages').innerText();
  await alert.scrollIntoViewIfNeeded();
  await page.locator('#thread-messages > li.msg').last().scrollIntoViewIfNeeded();
  await shot('sandbox-resolved');
  // The resolved parent, its fix still in place with the Undo, measured as a phone renders it (thread closed).
  await page.locator('#thread-close').click();
  const wide = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: wide.height });
  seen.resolvedLines = await alert.evaluate(linesOfMessage);
  await page.setViewportSize(wide);
  // The symptom that resolved last, once the cluster had healed: the recreation loop, in a thread of
  // its own once its root cause had resolved (until then it is listed in the webhook's thread).
  const loop = page
    .locator('#messages > li.msg')
    .filter({ has: page.locator('.bk-header', { hasText: 'machine replacements' }) })
    .first();
  await loop.locator('.msg-replies').click();
  await threadMessage(page, 'Resolved').last().waitFor(t);
  seen.loopThread = await page.locator('#thread-messages').innerText();
  await loop.scrollIntoViewIfNeeded();
  await page.locator('#thread-messages > li.msg').last().scrollIntoViewIfNeeded();
  await shot('sandbox-loop-resolved');
  return seen;
}

/** A phone's width in CSS pixels: the card and the alert parent are held to one screen of it. */
export const PHONE_WIDTH = 360;

/* Runs in the page: the rendered height of a message's blocks in lines of body text (its author line aside). */
function linesOfMessage(li) {
  const body = li.querySelector('.msg-body');
  const lineHeight = parseFloat(getComputedStyle(document.body).lineHeight);
  return Math.round((body.getBoundingClientRect().height / lineHeight) * 10) / 10;
}

/**
 * The alert parent of the webhook outage and a fresh answer card, as a 360 px wide phone renders them
 * (the viewport is set to that width, then back): their rendered heights in lines (`linesOfMessage`).
 * Asked as Uma, so the incident's own answer (Pat's) is still to come.
 */
export async function measurePhoneScreen(page, url) {
  const t = { timeout: 45_000 };
  const before = page.viewportSize();
  await page.setViewportSize({ width: PHONE_WIDTH, height: 1400 });
  try {
    await page.goto(url);
    await actAs(page, 'U0UMA');
    const alert = message(page, WEBHOOK_ALERT).first();
    await alert.waitFor(t);
    await page.focus('#composer-input');
    await page.keyboard.type('prod-east');
    await page.keyboard.press('Enter');
    const answer = message(page, '/k8s-health prod-east asked by @uma');
    await answer.waitFor(t);
    return {
      alertLines: await alert.evaluate(linesOfMessage),
      answerLines: await answer.evaluate(linesOfMessage),
      alert: await alert.innerText(),
      answer: await answer.innerText(),
    };
  } finally {
    await page.setViewportSize(before);
  }
}

/**
 * Prometheus alerts grouped under their root cause (docs/alertmanager.md): a fresh start of the live
 * scenario, the "Prometheus alerts" button (what Alertmanager would send about its symptoms, to the
 * bot's own `POST /alertmanager`), then the root cause's thread with the alerts as replies.
 */
export async function playPrometheusAlerts(page, url, shot = async () => undefined) {
  const t = { timeout: 45_000 };
  await page.goto(url);
  await page.locator('#reset').click();
  await actAs(page, 'U0PAT');
  const alert = message(page, WEBHOOK_ALERT).first();
  await alert.waitFor(t);
  await page.locator('#prometheus').click();
  await message(page, 'KubePodCrashLooping').first().waitFor(t);
  await alert.locator('.msg-replies').waitFor(t);
  await alert.locator('.msg-replies').click();
  await threadMessage(page, 'KubeAPIErrorBudgetBurn').first().waitFor(t);
  await threadMessage(page, 'Prometheus alerts in this thread').first().waitFor(t);
  await shot('sandbox-prometheus-alerts');
  return { replies: await page.locator('#thread-messages > li.msg', { hasText: 'Prometheus:' }).count() };
}
