#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (prepare) or `npm run build`.
import { runCli } from '../dist/cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
