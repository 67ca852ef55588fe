#!/usr/bin/env node
// `npm run screenshots`: plays the sandbox incident (scripts/sandbox-tour.js) in headless Chromium and
// saves a PNG at each step into docs/images/, for docs/slack.md. Run it after changing what the bot
// posts or how the sandbox page renders it; the browser test plays the same incident without writing files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, playIncident, startSandboxProcess } from './sandbox-tour.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const sandbox = await startSandboxProcess();
const browser = await launchBrowser();
try {
  await playIncident(browser.page, sandbox.url, async (name) => {
    const file = path.join('docs', 'images', `${name}.png`);
    await browser.page.screenshot({ path: file });
    process.stdout.write(`wrote ${file}\n`);
  });
} finally {
  await browser.close();
  sandbox.child.kill('SIGTERM');
  await sandbox.exit;
}
