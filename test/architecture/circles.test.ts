import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * lib has no file circles (issue 53): no file reaches itself through its relative imports. A circle
 * makes two files one unit that can only be read, tested and moved together, and at run time the
 * first of them to load sees the other half-initialised. Type-only imports count too (they are read
 * with TypeScript's pre-processor, as imports.test.ts reads them): a type shared by two files lives
 * in a third both import (lib/egress/http1-message.ts, lib/notify/pipeline/ports.ts).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

function libFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return libFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file's relative imports that land on a file of `files`. */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = ts
      .preProcessFile(source, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => sources.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan), each sorted; a self-import is one too. */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

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
