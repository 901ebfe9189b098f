import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'console.md'), 'utf8');

/** The screenshot names the console suite writes: `screenshot(<page>, '<name>')` in test/console. */
function screenshotNames(): string[] {
  const dir = join(root, 'test', 'console');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts'))) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/screenshot\([\w.]+, '([a-z0-9-]+)'\)/g))
      if (m[1]) names.add(m[1]);
  }
  return [...names].sort();
}

describe('docs/console.md', () => {
  it('shows every screenshot the console suite writes, and each is in docs/console/', () => {
    const names = screenshotNames();
    expect(names.length).toBeGreaterThanOrEqual(15);
    const missing = names.filter(
      (n) => !doc.includes(`](console/${n}.png)`) || !existsSync(join(root, 'docs', 'console', `${n}.png`)),
    );
    expect(missing).toEqual([]);
  });

  it('shows no image the suite no longer writes', () => {
    const shown = [...doc.matchAll(/\]\(console\/([a-z0-9-]+)\.png\)/g)].map((m) => m[1]).sort();
    const kept = readdirSync(join(root, 'docs', 'console'))
      .map((f) => f.replace(/\.png$/, ''))
      .sort();
    expect(shown).toEqual(screenshotNames());
    expect(kept).toEqual(screenshotNames());
  });
});
