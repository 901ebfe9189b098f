import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No console file over 300 lines (issue 76 point 5): a page that grows past it is split into its
 * parts (a table, a form, a section) in its folder. web/src/api/schema.d.ts is generated from the
 * OpenAPI document (`npm run api:types`), not written, and is left out; so are data files.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const WEB_SRC = join(ROOT, 'web', 'src');
const MAX_LINES = 300;
const GENERATED = new Set(['web/src/api/schema.d.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(tsx?|css)$/.test(entry.name) ? [path] : [];
  });
}

describe('console file size', () => {
  it(`keeps every file of web/src at most ${MAX_LINES} lines`, () => {
    const files = sourceFiles(WEB_SRC).map((path) => relative(ROOT, path).split(sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .filter((file) => !GENERATED.has(file))
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
