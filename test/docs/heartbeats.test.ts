import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The compatibility table's rows: the test file and the test's title each row names. */
function namedTests(): Array<{ row: string; file: string; title: string }> {
  const page = readFileSync(join(ROOT, 'docs', 'heartbeats.md'), 'utf8');
  const start = page.indexOf('## Compatibility table');
  const end = page.indexOf('\n## ', start + 1);
  const table = page.slice(start, end === -1 ? undefined : end);
  return table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Form') && !line.startsWith('| ---'))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      const test = cells.at(-2) ?? '';
      const match = /^(\S+\.test\.ts) "(.*)"$/.exec(test);
      return {
        row: cells[1] ?? line,
        file: match?.[1] ?? '',
        title: (match?.[2] ?? '').replace(/\\"/g, '"'),
      };
    });
}

describe('docs/heartbeats.md', () => {
  it('names, on every row of its compatibility table, a test that exists', () => {
    const rows = namedTests();
    expect(rows.length).toBeGreaterThan(25);
    const missing = rows.filter(({ file, title }) => {
      if (!file || !title) return true;
      // A bare file name is in test/push; another folder is named from test/ (`cli/run.test.ts`).
      const source = readFileSync(join(ROOT, 'test', file.includes('/') ? '' : 'push', file), 'utf8');
      return !source.includes(`'${title}'`) && !source.includes(`"${title}"`);
    });
    expect(missing.map((m) => m.row)).toEqual([]);
  });
});
