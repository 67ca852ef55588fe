import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of a hand-made dump under test/fixtures/dumps/. */
export function fixtureDir(name: string): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'dumps', name);
}
