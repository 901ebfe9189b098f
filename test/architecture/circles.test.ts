import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circlesOf, importGraph, libFiles } from './import-graph.ts';

/**
 * lib has no file circles (issue 53): no file reaches itself through its relative imports. A circle
 * makes two files one unit that can only be read, tested and moved together, and at run time the
 * first of them to load sees the other half-initialised. Type-only imports count too (they are read
 * with TypeScript's pre-processor, as imports.test.ts reads them): a type shared by two files lives
 * in a third both import (lib/egress/http1-message.ts, lib/notify/items/ports.ts).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

const named = (group: string[]) => group.map((file) => relative(ROOT, file).split(sep).join('/')).join(' ↔ ');

describe('lib has no file circles', () => {
  it('finds no file that reaches itself through its imports', () => {
    const lib = join(ROOT, 'lib');
    expect(existsSync(lib)).toBe(true);
    const sources = new Map(libFiles(lib).map((file) => [file, readFileSync(file, 'utf8')]));
    expect(sources.size).toBeGreaterThan(400);

    expect(circlesOf(importGraph(sources)).map(named)).toEqual([]);
  });

  it('sees a circle, type-only or through a third file (the check above can fail)', () => {
    const at = (name: string) => join(ROOT, 'lib', 'example', name);
    const sources = new Map([
      [at('a.ts'), "import type { B } from './b.ts';"],
      [at('b.ts'), "import { c } from './c.ts';"],
      [at('c.ts'), "export { a } from './a.ts';"],
      [at('d.ts'), "import { a } from './a.ts';"],
    ]);

    expect(circlesOf(importGraph(sources)).map(named)).toEqual([
      'lib/example/a.ts ↔ lib/example/b.ts ↔ lib/example/c.ts',
    ]);
  });
});
