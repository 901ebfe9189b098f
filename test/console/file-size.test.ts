import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's sources keep their shape (issue 76 point 5): no file over 300 lines (a page that
 * grows past it is split into its parts, a table, a form, a section, in its folder), and every list
 * is the one Table component, not a hand-written <table>. web/src/api/schema.d.ts is generated from
 * the OpenAPI document (`npm run api:types`), not written, and is left out; so are data files.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const WEB_SRC = join(ROOT, 'web', 'src');
const MAX_LINES = 300;
const GENERATED = new Set(['web/src/api/schema.d.ts']);
/** The one place a <table> element is written. */
const TABLE_COMPONENT = 'web/src/ui/table.tsx';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(tsx?|css)$/.test(entry.name) ? [path] : [];
  });
}

describe('console sources', () => {
  it(`keeps every file of web/src at most ${MAX_LINES} lines`, () => {
    const files = sourceFiles(WEB_SRC).map((path) => relative(ROOT, path).split(sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .filter((file) => !GENERATED.has(file))
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });

  it('writes every table with the one Table component (web/src/ui/table.tsx)', () => {
    const handWritten = sourceFiles(WEB_SRC)
      .map((path) => relative(ROOT, path).split(sep).join('/'))
      .filter((file) => file.endsWith('.tsx') && file !== TABLE_COMPONENT)
      .filter((file) => /<table[\s>]/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(handWritten).toEqual([]);
  });
});
