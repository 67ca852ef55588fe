import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
// The incident is shared with `npm run screenshots` (plain JS, no types).
import {
  launchBrowser,
  MAX_RESOLUTION_STEPS,
  measurePhoneScreen,
  playIncident,
  startSandboxProcess,
  // @ts-expect-error scripts/ is JavaScript
} from '../../scripts/sandbox-tour.js';
import { freePort } from '../support/free-port.js';
import { signalPid } from '../support/signal-pid.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * A PATH with nothing on it but `node` (a directory holding one symlink): no redis-server, no
 * kubectl, no etcd — "no Redis installed" as a newcomer's laptop has it.
 */
function createNodeOnlyPath(): { path: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-node-only-'));
  symlinkSync(process.execPath, path.join(dir, 'node'));
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Child process ids of `pid` (Linux /proc). */
function childPids(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

/** Wait until none of `pids` runs any more (or the deadline passed); returns those still running. */
async function waitGone(pids: number[], deadlineMs = 20_000): Promise<number[]> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const left = pids.filter(
      (p) => existsSync(`/proc/${p}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${p}/status`, 'utf8')),
    );
    if (!left.length || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Sandbox = {
  url: string;
  child: { pid: number; exitCode: number | null };
  exit: Promise<number | null>;
  stdout: string;
  stderr: string;
};
type Browser = { page: Page; close(): Promise<void> };

/**
 * `k8s-health sandbox` (the built CLI) driven by headless Debian Chromium through a whole
 * incident — the real Bolt app behind signed requests, the real workers and approval flow, the
 * sandbox's Slack and simulated cluster — and its page checked for what docs/sandbox.md promises of it.
 */
/** Lines of a phone screen (360 px wide) the webhook outage's alert parent may take. */
const ALERT_PHONE_LINES = 20;
/** Lines of a phone screen (360 px wide) the answer card may take, who asked included (CARD_LINE_BUDGET). */
const ANSWER_PHONE_LINES = 12;

describe('k8s-health sandbox in a real browser', () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let nodeOnly: ReturnType<typeof createNodeOnlyPath>;
  let store: number[] = [];
  const requests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // No Redis to be had: PATH holds node alone and REDIS_URL is unset (startSandboxProcess passes
    // only PATH, LOG_LEVEL and what is given here).
    nodeOnly = createNodeOnlyPath();
    expect(spawnSync('redis-server', ['--version'], { env: { PATH: nodeOnly.path } }).error).toBeDefined();
    sandbox = await startSandboxProcess({ env: { PATH: nodeOnly.path, PORT: String(await freePort()) } });
    store = childPids(sandbox.child.pid);
    browser = await launchBrowser({ timezoneId: 'Asia/Tokyo' });
    browser.page.on('request', (r) => void requests.push(r.url()));
    browser.page.on('pageerror', (e) => void pageErrors.push(String(e)));
    browser.page.on('console', (m) => void (m.type() === 'error' && pageErrors.push(m.text())));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (sandbox && sandbox.child.exitCode === null) signalPid(sandbox.child.pid, 'SIGTERM');
    // A graceful stop: exit 0 after the bot, the workers and its embedded Valkey stopped.
    expect(await sandbox?.exit).toBe(0);
    expect(await waitGone(store)).toEqual([]);
    nodeOnly?.remove();
  }, 60_000);

  it('runs on its embedded Valkey without any redis-server, and prints its URL on 127.0.0.1 as the first line', async () => {
    expect(sandbox.stdout).toMatch(
      /^k8s-health sandbox: open http:\/\/127\.0\.0\.1:\d+\/ \(loopback only; Redis: embedded Valkey; /,
    );
    // The store is a child process of the sandbox (node running the Valkey engine compiled to WebAssembly).
    expect(store).toHaveLength(1);
    expect(readFileSync(`/proc/${store[0]}/cmdline`, 'utf8')).toContain('run-embedded-valkey.js');
  });

  it('serves the page only on 127.0.0.1', async () => {
    const port = new URL(sandbox.url).port;
    // Another Host (a DNS-rebinding page) is refused, and so is a POST that is not JSON (a cross-site form).
    // fetch drops a Host header it is given: node:http sends it as written.
    const wrongHost = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: Number(port), path: '/', headers: { host: `evil.example:${port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject);
    });
    expect(wrongHost).toBe(421);
    const form = await fetch(new URL('/api/reset', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x=1',
    });
    expect(form.status).toBe(415);
    const page = await fetch(sandbox.url);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('is usable by keyboard: the skip link leads to the message box, Enter sends, the answer is only for the sender', async () => {
    const page = browser.page;
    await page.goto(sandbox.url);
    await page.locator('#messages > li.msg').first().waitFor({ timeout: 45_000 });
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } } }).document.activeElement
            .className,
      ),
    ).toBe('skip');
    await page.keyboard.press('Enter');
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      ),
    ).toBe('composer-input');
    await page.keyboard.type('help');
    await page.keyboard.press('Enter');
    const help = page.locator('#messages > li.msg-is-ephemeral', { hasText: '/k8s-health' });
    await help.first().waitFor({ timeout: 30_000 });
    expect(await help.first().innerText()).toContain('Only visible to you');
  }, 90_000);

  it('labels every control and keeps text at 4.5:1 contrast or more', async () => {
    await browser.page.goto(sandbox.url);
    await browser.page.locator('#messages .bk-code').first().waitFor({ timeout: 45_000 });
    const report = await browser.page.evaluate(() => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const doc = (globalThis as any).document;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const win = globalThis as any;
      const unlabelled = [...doc.querySelectorAll('select, input, textarea')]
        .filter((e: { labels: unknown[] }) => !e.labels?.length)
        .map((e: { id: string }) => e.id);
      // Buttons of a closed dialog are not shown (and get their text when it opens).
      const nameless = [...doc.querySelectorAll('button')].filter(
        (b: { textContent: string; getAttribute(n: string): string | null; checkVisibility(): boolean }) =>
          b.checkVisibility() && !b.textContent.trim() && !b.getAttribute('aria-label'),
      ).length;
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: number[]) => {
        const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const bgOf = (e: { parentElement: unknown }): number[] => {
        for (let x = e as { parentElement: unknown } | null; x; x = x.parentElement as typeof x) {
          const c = win.getComputedStyle(x).backgroundColor;
          if (!/rgba\(0, 0, 0, 0\)|transparent/.test(c)) return rgb(c);
        }
        return [255, 255, 255];
      };
      const worst: Array<{ what: string; ratio: number }> = [];
      for (const sel of [
        '.bk-button-primary',
        '.bk-button-danger',
        '.msg-time',
        '.bk-context',
        '.bk-mention',
        '.bk-code',
        '.msg-author',
        '.bar-title',
        '.channel-topic',
        '.composer-hint',
        '.msg-replies',
        '.tab',
      ]) {
        const e = doc.querySelector(sel);
        if (!e) continue;
        const [a, b] = [lum(rgb(win.getComputedStyle(e).color)), lum(bgOf(e))];
        worst.push({ what: sel, ratio: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100 });
      }
      return { unlabelled, nameless, worst };
    });
    expect(report.unlabelled).toEqual([]);
    expect(report.nameless).toBe(0);
    expect(report.worst.length).toBeGreaterThan(6);
    expect(report.worst.filter((w) => w.ratio < 4.5)).toEqual([]);
  });

  it('fits the alert parent and the answer card on one phone screen at 360 px', async () => {
    const phone = await measurePhoneScreen(browser.page, sandbox.url);
    // Rendered lines of the messages' blocks (height over the body's line height), at 360 px CSS width.
    expect({ alertLines: phone.alertLines, alert: phone.alert }).toEqual({
      alertLines: expect.any(Number),
      alert: phone.alert,
    });
    expect(phone.alertLines).toBeLessThanOrEqual(ALERT_PHONE_LINES);
    expect(phone.answerLines).toBeLessThanOrEqual(ANSWER_PHONE_LINES);
    // Open, the parent still has room to name its first symptom.
    expect(phone.alert).toMatch(/\b4 symptoms: .*machine replacements/);
    // Each fact once: the webhook is named in the header and the fix button only; no ids but in the small print.
    expect(phone.alert.split('kyverno-resource-validating-webhook-cfg').length - 1).toBeLessThanOrEqual(2);
    expect(phone.answer).not.toContain('webhook.unavailable-blocking');
    expect(phone.answer).not.toContain('ids:');
  }, 120_000);

  it("plays a whole incident: command, answer card, alert thread, proposal, self-approval refused, an approver's Home tab, two approvals, execution, resolution", async () => {
    const seen = await playIncident(browser.page, sandbox.url);
    // Alert threads opened from the first scan of the live cluster, one per root cause: the
    // webhook outage owns its thread and lists the loop and the CNI findings as its symptoms.
    expect(
      seen.alerts.some((h: string) => h.includes('Webhook kyverno-resource-validating-webhook-cfg refuses pods')),
    ).toBe(true);
    expect(seen.alerts.some((h: string) => /machine replacements|CNI not initialized|CNI on node/.test(h))).toBe(false);
    // The answer card of /k8s-health prod-east, asked by Pat.
    expect(seen.answer).toContain('prod-east');
    expect(seen.answer).toMatch(/critical/i);
    // Scanned the moment it answers: the card's time is the message's own, and Details says when it was scanned.
    expect(seen.answer).not.toContain('scanned ');
    expect(seen.answer).not.toMatch(/ ago\b/);
    // Its Details, to Pat only: the sections and the evidence.
    expect(seen.details).toContain('Only visible to you');
    expect(seen.details).toContain('scanned ');
    expect(seen.details).toContain('Webhooks');
    // The alert thread's own controls: owned, snoozed from the Snooze menu, unsnoozed, timeline exported.
    expect(seen.snoozed).toContain('On it: @pat');
    // Snoozed by the one on it: one line says both.
    expect(seen.snoozed).toMatch(/On it: @pat since .* · .*Snoozed until \S/);
    expect(seen.unsnoozed).not.toContain('Snoozed until');
    expect(seen.unsnoozed).toContain('On it: @pat');
    expect(seen.timeline).toContain('Incident timeline of');
    // Exported as a Markdown file (files.uploadV2 through the sandbox's Slack), with a one-line summary.
    expect(seen.timeline).toMatch(/timeline-prod-east-\d{8}-\d{4}\.md · \d+ lines/);
    expect(seen.timeline).toContain('ready for a postmortem');
    // The proposal: a frozen plan with its API calls, the server-side dry run, 0 of 2.
    expect(seen.proposal).toContain('Waiting for 2 more of 2 approvals');
    expect(seen.proposal).toContain('Suspend webhook kyverno-resource-validating-webhook-cfg on prod-east');
    // The proposer is never listed among those who may approve.
    expect(seen.proposal).toContain('Who may approve: @ann, @ben\n');
    expect(seen.proposal).toContain('dryRun=All');
    expect(seen.proposal).toContain('0 of 2 approvals');
    // Refusals are ephemeral: only the clicker sees them.
    expect(seen.selfApproval).toContain('Only visible to you');
    expect(seen.unauthorized).toContain('You are not an authorized approver of cluster prod-east');
    expect(seen.firstApproval).toContain('1 of 2 approvals: @ann');
    // Ben's Home tab (app_home_opened → views.publish): the cluster, its state, and the request waiting on him.
    expect(seen.home).toContain('Cluster health');
    expect(seen.home).toMatch(/prod-east · critical/);
    expect(seen.home).toContain('Waiting on you: Suspend webhook kyverno-resource-validating-webhook-cfg');
    expect(seen.home).toContain('proposed by @pat');
    expect(seen.home).toContain('For @ben');
    expect(seen.modalError).toBe('Type the cluster name exactly: prod-east');
    // Executed against the simulated API server, the request message edited in place, the backup in the thread.
    expect(seen.executed).toContain('Executed');
    expect(seen.executed).toContain('2 of 2 approvals: @ann, @ben');
    expect(seen.executed).toContain('(edited)');
    // The execution reply is a few lines; the backup is one click away, shown only to the clicker.
    expect(seen.result).toContain('Show backup');
    expect(seen.result).not.toContain('"kind"');
    expect(seen.backup).toContain('"kind": "ValidatingWebhookConfiguration"');
    expect(seen.backup).toContain('Only visible to you');
    expect(seen.thread).toContain('Restore webhook kyverno-resource-validating-webhook-cfg');
    // Resolved: the parent says so and the thread's last reply too.
    expect(seen.resolved).toMatch(/Resolved/);
    // The suspended webhook is still in place (its backend is back by then): the parent says so in a line, with the
    // Undo in its row, and still fits one phone screen; the resolution reply says the undo's whole risk.
    expect(seen.resolved).toMatch(/Still in place since .*: Suspend webhook\.\n/);
    expect(seen.resolved).toMatch(/\nUndo\n/);
    expect(seen.resolvedLines).toBeLessThanOrEqual(ALERT_PHONE_LINES);
    expect(seen.thread).toContain('Resolved, but still in place');
    expect(seen.thread).toContain('undo risk: kyverno-resource-validating-webhook-cfg enforces its policy again');
    expect(seen.thread).toMatch(/Resolved: not seen in 2 consecutive scans/);
    // The parent names as many symptoms as fit a phone screen; the answer's Details lists them all, and the resolved
    // parent says how long the incident lasted.
    expect(seen.details).toContain('Control-plane rollout ns-prod/tkc-prod-control-plane');
    expect(seen.details).toContain('CNI not initialized');
    expect(seen.thread).toMatch(/Resolved .* · lasted \d+[smhd]/);
    // The symptoms heal too once the webhook is gone (the simulated cluster's controllers: the node
    // gets its CNI, the rollout completes), so every alert thread of the incident resolves within a
    // few "next scan" steps. A symptom still there when its root cause resolved has a thread of its own
    // (the recreation loop, until one loop cycle passes without a recreation), and resolves too.
    // The stuck rollout is one of the webhook's symptoms (listed in its thread above), not a thread of its own.
    expect(seen.openBeforeScans).toEqual(
      expect.arrayContaining([expect.stringContaining('Webhook kyverno-resource-validating-webhook-cfg refuses pods')]),
    );
    expect(seen.openBeforeScans.some((h: string) => h.includes('Control-plane rollout'))).toBe(false);
    expect(seen.openAfterScans).toEqual([]);
    expect(seen.alertThreads.length).toBeGreaterThanOrEqual(3);
    expect(seen.alertThreads.every((h: string) => h.startsWith('✅ Resolved · prod-east: '))).toBe(true);
    expect(seen.resolutionSteps).toBeLessThanOrEqual(MAX_RESOLUTION_STEPS);
    // The loop's thread says it resolved (no recreation for a loop cycle), not that it was muted.
    expect(seen.loopThread).toMatch(/Resolved: not seen in 2 consecutive scans/);
  }, 240_000);

  it("shows date tokens in the viewer's time zone", async () => {
    // The approval request's expiry is a <!date^…> token; this browser runs in Asia/Tokyo (UTC+9).
    const webhookAlert = browser.page
      .locator('#messages > li.msg', { hasText: 'Webhook kyverno-resource-validating-webhook-cfg refuses pods' })
      .first();
    await webhookAlert.locator('.msg-replies').click();
    const date = browser.page.locator('#thread-messages time.bk-date').first();
    const iso = await date.getAttribute('datetime');
    const tokyo = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(iso!));
    expect(await date.innerText()).toContain(tokyo);
  });

  it('asked nothing of any other host, and the page raised no error', () => {
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => !u.startsWith(sandbox.url))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('kept its terminal clean: the URL line alone on stdout, no Valkey log or WASI warning on stderr', () => {
    expect(sandbox.stdout.trim().split('\n')).toHaveLength(1);
    expect(sandbox.stderr).not.toMatch(/ExperimentalWarning|WASI|Valkey|valkey|ECONNREFUSED/);
  });

  it('renders untrusted text as text, buttons with their confirm dialogs, and mrkdwn as Slack does', async () => {
    const page = browser.page;
    const out = await page.evaluate(async () => {
      // The page's own renderer, on blocks the bot could post (and text a cluster could carry).
      const rendererUrl = '/assets/block-kit.js';
      const { renderBlock, renderMrkdwn } = await import(rendererUrl);
      // This runs in the page (tsc here has no DOM types).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const doc = (globalThis as any).document;
      const host = doc.createElement('div');
      doc.body.append(host);
      const clicks: string[] = [];
      let asked = '';
      const ctx = {
        people: { U0ANN: { name: 'ann' } },
        channel: { id: 'C0INCIDENT', name: 'incident' },
        now: new Date('2025-02-17T10:00:00Z'),
        messageTs: 'test',
        onClick: (e: { action_id: string }) => clicks.push(e.action_id),
        confirm: async (c: { title: { text: string } }) => ((asked = c.title.text), true),
      };
      host.append(
        ...renderMrkdwn(
          '*bold* _italic_ ~gone~ `code` <@U0ANN> <!here> <https://example.com|a link> &lt;img src=x onerror=alert(1)&gt; <script>x</script>\n> quoted\n```pre *not bold*```',
          ctx,
        ),
      );
      const button = renderBlock(
        {
          type: 'actions',
          block_id: 'b1',
          elements: [
            {
              type: 'button',
              action_id: 'go',
              style: 'danger',
              text: { type: 'plain_text', text: 'Delete :x:' },
              confirm: {
                title: { type: 'plain_text', text: 'Really?' },
                text: { type: 'mrkdwn', text: 'sure' },
                confirm: { type: 'plain_text', text: 'Yes' },
                deny: { type: 'plain_text', text: 'No' },
              },
            },
          ],
        },
        ctx,
      );
      host.append(button);
      button.querySelector('button').click();
      await new Promise((r) => setTimeout(r, 10));
      const result = {
        html: host.innerHTML,
        text: host.innerText,
        tags: [...host.querySelectorAll('*')].map((e: { tagName: string }) => e.tagName.toLowerCase()),
        danger: button.querySelector('button').className,
        buttonText: button.querySelector('button').textContent,
        clicks,
        asked,
      };
      host.remove();
      return result;
    });
    expect(out.tags).not.toContain('img');
    expect(out.tags).not.toContain('script');
    expect(out.tags).not.toContain('a'); // links are shown, never followed
    expect(out.tags).toEqual(expect.arrayContaining(['strong', 'em', 'del', 'code', 'blockquote', 'pre', 'button']));
    expect(out.text).toContain('@ann');
    expect(out.text).toContain('@here');
    expect(out.text).toContain('<img src=x onerror=alert(1)>');
    expect(out.text).toContain('pre *not bold*');
    expect(out.danger).toContain('bk-button-danger');
    expect(out.buttonText).toBe('Delete ❌');
    expect(out.asked).toBe('Really?');
    expect(out.clicks).toEqual(['go']);
  });

  it('plays every bundled scenario from the picker, and a replay moves on with "next scan"', async () => {
    const page = browser.page;
    const names = await page
      .locator('#scenario option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    const bundled = spawnSync('ls', ['examples/scenarios'], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((n) => /^[a-z0-9-]+$/.test(n));
    expect(names).toEqual(['prod-east', ...bundled]);
    await page.selectOption('#scenario', 'replay-s3-recreation-loop');
    await page.getByRole('button', { name: 'Play scenario' }).click();
    await page.locator('#step', { hasText: 'step 1 of 4' }).waitFor({ timeout: 60_000 });
    await page.locator('#scenario-title', { hasText: 'replay-s3-recreation-loop' }).waitFor();
    for (const step of [2, 3, 4]) {
      await page.getByRole('button', { name: 'Next scan' }).click();
      await page.locator('#step', { hasText: `step ${step} of 4` }).waitFor({ timeout: 60_000 });
    }
    // The loop is only visible across scans: by the last step its alert thread is open.
    await page
      .locator('#messages .bk-header', { hasText: 'replay-s3-recreation-loop: KubeadmControlPlane' })
      .first()
      .waitFor({ timeout: 60_000 });
    // Reset empties the channel and starts the scenario again.
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.locator('#step', { hasText: 'step 1 of 4' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('#messages .msg-edited').count()).toBe(0);
  }, 180_000);

  it("on a 360 px phone, a root cause's third fix picked from its overflow menu is proposed, approved by two others and run once", async () => {
    // The recreation loop's fixes on the live cluster, in the finding's order: a button, then the overflow menu.
    const FIRST_FIX = 'Suspend webhook kyverno-resource-validating-webhook-cfg';
    const SECOND_FIX = 'Scale kyverno/kyverno-admission-controller to 0 (was 1)';
    const THIRD_FIX = 'Pause remediation: tkc-prod-control-plane-mhc';
    const page = browser.page;
    const t = { timeout: 45_000 };
    const before = page.viewportSize()!;
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      // The live cluster from its start (an earlier case may have played another scenario or fixed this one).
      await page.goto(sandbox.url);
      await page.selectOption('#scenario', 'prod-east');
      // Answered once the new session runs (its first scan done): a command typed before would reach the old one.
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/scenario') && r.request().method() === 'POST', t),
        page.getByRole('button', { name: 'Play scenario' }).click(),
      ]);
      await page
        .locator('#messages > li.msg', {
          hasText: 'prod-east: Webhook kyverno-resource-validating-webhook-cfg refuses pods',
        })
        .first()
        .waitFor(t);
      const actAs = (id: string) => page.selectOption('#person', id);
      await actAs('U0PAT');
      // The machines section: the recreation loop is its root cause (the webhook that causes it is in another
      // section) with three fixes — the first a button, the second and third in the overflow menu.
      await page.focus('#composer-input');
      await page.keyboard.type('prod-east machines');
      await page.keyboard.press('Enter');
      const answer = page.locator('#messages > li.msg', { hasText: '/k8s-health prod-east machines asked by @pat' });
      await answer.waitFor(t);
      expect(await answer.innerText()).toContain('KubeadmControlPlane ns-prod/tkc-prod-control-plane');
      await expect(answer.getByRole('button', { name: FIRST_FIX }).count()).resolves.toBe(1);
      const overflow = answer.getByLabel('More options');
      expect(await overflow.locator('option').allInnerTexts()).toEqual(['⋯', SECOND_FIX, THIRD_FIX]);
      // Within the phone's width, so a thumb reaches it.
      const box = (await overflow.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(360);

      await overflow.selectOption({ label: THIRD_FIX });
      await answer.locator('.msg-replies').waitFor(t);
      await answer.locator('.msg-replies').click();
      const thread = page.locator('#thread-messages > li.msg');
      const request = thread.filter({ hasText: 'Blast radius' });
      await request.getByRole('button', { name: 'Approve' }).waitFor(t);
      // The request is for the fix picked, and the only one in the thread.
      expect(await request.count()).toBe(1);
      const proposed = await request.innerText();
      expect(proposed).toContain(`${THIRD_FIX} on prod-east`);
      expect(proposed).toContain('action mhc.pause-remediation');
      expect(proposed).toContain('Waiting for 2 more of 2 approvals');
      expect(proposed).toContain('Proposed by @pat');

      // The same two-person approval as any fix: Ann, then Ben, whose decisive approval types the cluster name.
      const approve = async (id: string) => {
        await actAs(id);
        await request.getByRole('button', { name: 'Approve' }).click();
        await page.locator('#confirm-ok').click();
      };
      await approve('U0ANN');
      await request.filter({ hasText: '1 of 2 approvals: @ann' }).waitFor(t);
      await approve('U0BEN');
      const modal = page.locator('#modal');
      await modal.waitFor({ state: 'visible', ...t });
      await page.getByLabel('Cluster name').fill('prod-east');
      await modal.getByRole('button', { name: 'Approve and run' }).click();
      await modal.waitFor({ state: 'hidden', ...t });
      await request.filter({ hasText: 'Executed' }).waitFor({ timeout: 60_000 });
      const executed = await request.innerText();
      expect(executed).toContain('2 of 2 approvals: @ann, @ben');
      expect(executed).toContain('done and verified');
      // Run once: one outcome in the thread, with the undo proposed as its button.
      const outcome = thread.filter({ hasText: 'outcome of request' });
      await outcome.first().waitFor(t);
      expect(await outcome.count()).toBe(1);
      expect(await outcome.innerText()).toContain('Resume remediation: tkc-prod-control-plane-mhc');

      // The next scan sees the pause on the cluster: the fix is no longer offered.
      await page.getByRole('button', { name: 'Next scan' }).click();
      await page.waitForFunction(
        () =>
          !(
            globalThis as unknown as { document: { getElementById(id: string): { disabled: boolean } } }
          ).document.getElementById('next-scan').disabled,
        undefined,
        t,
      );
      await page.focus('#composer-input');
      await page.keyboard.type('prod-east machines');
      await page.keyboard.press('Enter');
      const after = page.locator('#messages > li.msg', { hasText: '/k8s-health prod-east machines asked by @ben' });
      await after.waitFor(t);
      expect(await after.getByLabel('More options').locator('option').allInnerTexts()).toEqual(['⋯', SECOND_FIX]);
    } finally {
      await page.setViewportSize(before);
    }
  }, 180_000);
});

describe('k8s-health sandbox and its store', () => {
  let redis: RedisServer | undefined;
  afterAll(async () => {
    await redis?.stop();
  });

  it('leaves no store behind when it is killed (SIGKILL): the embedded Valkey ends with it', async () => {
    const nodeOnly = createNodeOnlyPath();
    // A killed sandbox cannot remove its session directory: give it a TMPDIR of its own to remove.
    const tmp = mkdtempSync(path.join(tmpdir(), 'k8s-health-killed-sandbox-'));
    try {
      const sandbox: Sandbox = await startSandboxProcess({ env: { PATH: nodeOnly.path, TMPDIR: tmp } });
      const store = childPids(sandbox.child.pid);
      expect(store).toHaveLength(1);
      signalPid(sandbox.child.pid, 'SIGKILL');
      await sandbox.exit;
      // Its IPC channel ends with the sandbox: the store stops on its own.
      expect(await waitGone(store)).toEqual([]);
    } finally {
      nodeOnly.remove();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 90_000);

  it('exits 1 with one line when its store dies under it (nothing works without it)', async () => {
    const sandbox: Sandbox = await startSandboxProcess();
    const [store] = childPids(sandbox.child.pid);
    signalPid(store!, 'SIGKILL');
    expect(await sandbox.exit).toBe(1);
    const lines = sandbox.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('k8s-health sandbox: the embedded Valkey stopped (signal SIGKILL)');
  }, 90_000);

  it("refuses a REDIS_URL database that holds someone else's keys (it wipes its database on reset)", async () => {
    redis = await startRedis();
    const client = new Redis(redis.url);
    await client.set('k8s-health:report:prod', 'not the sandbox');
    client.disconnect();
    const r = spawnSync(process.execPath, ['bin/k8s-health.js', 'sandbox'], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: redis.url },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("holds 1 keys that are not the sandbox's");
    const check = new Redis(redis.url);
    expect(await check.get('k8s-health:report:prod')).toBe('not the sandbox');
    check.disconnect();
  });
});
