#!/usr/bin/env node
// `npm run screenshots`: plays the sandbox incident (scripts/sandbox-tour.js) in headless Chromium and
// saves a PNG at each step into docs/images/, for docs/slack.md. Run it after changing what the bot
// posts or how the sandbox page renders it; the browser test plays the same incident without writing files.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, playIncident, playPrometheusAlerts, startSandboxProcess } from './sandbox-tour.js';

// Without a colour emoji font Chromium draws the bot's status emoji as empty boxes.
if (!existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf')) {
  process.stderr.write(
    'npm run screenshots: install the emoji font first (Debian: apt-get install fonts-noto-color-emoji)\n',
  );
  process.exit(1);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const sandbox = await startSandboxProcess();
const browser = await launchBrowser();
try {
  const shot = async (name) => {
    const file = path.join('docs', 'images', `${name}.png`);
    await browser.page.screenshot({ path: file });
    process.stdout.write(`wrote ${file}\n`);
  };
  // `npm run screenshots -- prometheus`: only the grouped Prometheus alerts (docs/alertmanager.md).
  if (process.argv[2] !== 'prometheus') await playIncident(browser.page, sandbox.url, shot);
  await playPrometheusAlerts(browser.page, sandbox.url, shot);
} finally {
  await browser.close();
  sandbox.child.kill('SIGTERM');
  await sandbox.exit;
}
