import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A snapshot folder of a series: t00, t01-before, t2… (what a scan loop writes, one folder per scan). */
const SNAPSHOT_NAME = /^t\d+/i;
/** Files a series directory may hold at its top besides its snapshot folders. */
const NOTES = /^(readme(\.[a-z]+)?|notes?\.(md|txt)|\..*)$/i;

/**
 * The snapshot folders of `dir`, in name order, when `dir` is a series of scans rather than one dump:
 * it holds no files of its own (a README aside) and two or more folders that are each a whole dump —
 * named t00, t01… or each holding its own meta.json. Read as one dump, nodes of different times would
 * stand side by side; replayed in order they are successive scans. Undefined for an ordinary dump.
 */
export async function findSnapshotSeries(dir: string): Promise<string[] | undefined> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  if (entries.some((e) => e.isFile() && !NOTES.test(e.name))) return undefined;
  const folders = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  if (folders.length < 2) return undefined;
  const named = folders.every((f) => SNAPSHOT_NAME.test(f));
  const withMeta =
    named || (await Promise.all(folders.map((f) => isFile(path.join(dir, f, 'meta.json'))))).every(Boolean);
  return named || withMeta ? folders.map((f) => path.join(dir, f)) : undefined;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
