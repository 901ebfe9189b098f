import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circlesOf, importGraph, libFiles } from './import-graph.ts';

/**
 * Floors inside every room (issue 76 point 2; STYLE.md "Features and stages (wave 6)"): inside a
 * lib folder, each subfolder and each top-level file is a part, and no two parts import each other,
 * directly or around a ring. Owners (items, schemas) sit at the bottom, flows above them, surfaces
 * (routes, tools, simulate) on top, so a part can be read, tested and moved with only what is
 * below it. lib/check-types and lib/domain were built so; every folder is held to it.
 *
 * KNOTS lists the folders still knotted when the rule came, each with the parts in its rings: the
 * rule fails for a folder not listed that has a ring, for a listed folder whose knot grows, and for
 * one whose knot shrank without its entry shrinking (so the list only ever gets shorter).
 */

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Folder (relative to lib) → the parts in its rings today. Shrink it as folders are untied. */
const KNOTS: Record<string, number> = {};

const posix = (path: string) => path.split(sep).join('/');

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);
}

/** The rings among the parts of `folder`: each a sorted list of part names (a subfolder, or a file). */
function ringsOf(folder: string, graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const partOf = (file: string) =>
    file.startsWith(`${folder}${sep}`) ? relative(folder, file).split(sep)[0] : undefined;
  const parts = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = partOf(file);
    if (from === undefined) continue;
    const edges = parts.get(from) ?? new Set<string>();
    parts.set(from, edges);
    for (const target of targets) {
      const to = partOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return circlesOf(new Map([...parts].map(([part, edges]) => [part, [...edges]])));
}

/** Every lib folder with a ring: its path under lib, the parts in its rings, the rings in words. */
function knotted(libDir: string, graph: ReadonlyMap<string, readonly string[]>) {
  return folders(libDir)
    .map((folder) => ({ folder: posix(relative(libDir, folder)), rings: ringsOf(folder, graph) }))
    .filter(({ rings }) => rings.length > 0)
    .map(({ folder, rings }) => ({
      folder,
      parts: rings.flat().length,
      words: rings.map((ring) => ring.join(' ↔ ')).join('; '),
    }));
}

describe('floors inside every lib folder', () => {
  const lib = join(ROOT, 'lib');
  const graph = importGraph(new Map(libFiles(lib).map((file) => [file, readFileSync(file, 'utf8')])));
  const found = knotted(lib, graph);

  it('has no ring between the parts of a folder, but the listed knots, which do not grow', () => {
    const problems = found
      .filter(({ folder, parts }) => parts > (KNOTS[folder] ?? 0))
      .map(({ folder, parts, words }) => `lib/${folder}: ${parts} parts in rings (${words})`);
    expect(problems).toEqual([]);
  });

  it('lists each knot at its size today, so the list only shrinks', () => {
    const today = Object.fromEntries(found.map(({ folder, parts }) => [folder, parts]));
    expect(today).toEqual(KNOTS);
  });

  it('sees a ring through a subfolder and a top-level file (the checks above can fail)', () => {
    const at = (...path: string[]) => join(ROOT, 'lib', 'example', ...path);
    const example = importGraph(
      new Map([
        [at('flow.ts'), "import { a } from './items/a.ts';"],
        [at('items', 'a.ts'), "import type { F } from '../routes/r.ts';"],
        [at('routes', 'r.ts'), "import { f } from '../flow.ts';"],
        [at('face.ts'), "import { f } from './flow.ts';"],
        [at('inner', 'x.ts'), "import { y } from './y.ts';"],
        [at('inner', 'y.ts'), "import { x } from './x.ts';"],
      ]),
    );
    expect(ringsOf(at(), example)).toEqual([['flow.ts', 'items', 'routes']]);
    // Inside a subfolder, its own files and subfolders are the parts.
    expect(ringsOf(at('inner'), example)).toEqual([['x.ts', 'y.ts']]);
  });
});
