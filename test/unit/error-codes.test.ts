import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '../../src/errors/error-codes.js';

/** The error code list is the one list: every code the code raises is in it, and every listed code is raised. */
describe('error codes', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
  const used = new Set(
    walk('src')
      .filter((f) => !f.endsWith(path.join('errors', 'error-codes.ts')))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/'(E_[A-Z_]+)'/g)].map((m) => m[1]!)),
  );

  it('every E_ code in src/ is listed in errors/error-codes.ts', () => {
    expect([...used].filter((c) => !(c in ERROR_CODES)).sort()).toEqual([]);
  });

  it('every listed code is raised somewhere, and says what it means', () => {
    expect(Object.keys(ERROR_CODES).filter((c) => !used.has(c))).toEqual([]);
    for (const [code, meaning] of Object.entries(ERROR_CODES))
      expect(`${code}: ${meaning.length > 10}`).toBe(`${code}: true`);
  });
});

/** A bare `Error` carries no code: every error the bot raises in src/ is one of the K8sHealthError family. */
describe('no uncoded errors', () => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );

  it('no `throw new Error(` in src/ TypeScript', () => {
    const bare = walk('src').flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bthrow new Error\(/.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(bare).toEqual([]);
  });
});
