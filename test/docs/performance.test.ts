import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'performance.md'), 'utf8');

describe('docs/performance.md', () => {
  it('is a reader’s page of at most 220 lines', () => {
    expect(page.split('\n').length).toBeLessThanOrEqual(220);
  });

  it('has the sections a reader looks for, in order', () => {
    const headings = [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'Running it',
      'The machine',
      'Figures against the targets',
      'Where the CPU goes',
      'What limits the numbers',
      'Scale model (cloud)',
    ]);
  });

  it('keeps history in git: no passes, one table of figures against the targets', () => {
    expect(page).not.toMatch(/\b(first|second|third|fourth|fifth|sixth|seventh|this|previous) pass\b/i);
    const section = page.split('## Figures against the targets')[1]?.split('\n## ')[0] ?? '';
    const tables = section.split('\n').filter((line) => /^\| -/.test(line));
    expect(tables).toHaveLength(1);
    expect(section).toContain('| target');
    expect(section).toContain('side by side');
  });
});
