import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of lib/ as the architecture tests read it: relative imports, type-only ones
 * included (TypeScript's pre-processor), between the .ts files given.
 */

/** Every .ts file under `dir`. */
export function libFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return libFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The feature list, whose mount entries load their mounts lazily. */
const FEATURE_LIST = join('lib', 'features', 'list.ts');

/**
 * A file's relative imports (TypeScript's pre-processor: static, type-only, re-exports and dynamic
 * ones), with apart the modules the feature list's entries load lazily (`() => import('…-routes.ts')`
 * and `() => import('…/job-host.ts')` in lib/features/list.ts): only the API composition calls
 * the mounts' loaders (lib/features/feature-routes.ts) and only what runs the notify queue the
 * hosts' (lib/features/job-hosts.ts), once the list has loaded, so they are no edge of the list's
 * load-time graph, and a function that loads the list loads none of them unless it loads that
 * loader (the other functions' bundles leave them out: test/infra/bundle-contents.test.ts).
 * Narrowly: only that file, only a route module's or job host's `import(` right in an arrow's
 * body; any other import of one, there too, is loaded.
 */
export function importsOf(file: string, source: string): { loaded: string[]; lazy: string[] } {
  const list = file.endsWith(FEATURE_LIST);
  const loaded: string[] = [];
  const lazy: string[] = [];
  for (const { fileName, pos } of ts.preProcessFile(source, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const loader =
      list &&
      /(-routes|\/job-host)\.ts$/.test(fileName) &&
      /\(\)\s*=>\s*import\($/.test(source.slice(Math.max(0, pos - 40), pos));
    (loader ? lazy : loaded).push(resolve(dirname(file), fileName));
  }
  return { loaded, lazy };
}

/** The modules the feature list's mount entries load lazily (see importsOf). */
export const lazyMounts = (file: string, source: string): Set<string> =>
  new Set(importsOf(file, source).lazy.filter((target) => target.endsWith('-routes.ts')));

/** The job hosts the feature list's entries load lazily (see importsOf). */
export const lazyHosts = (file: string, source: string): Set<string> =>
  new Set(importsOf(file, source).lazy.filter((target) => target.endsWith('job-host.ts')));

/** Each file's relative imports that land on a file of `files` (the feature list's lazy mounts left out). */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = importsOf(file, source).loaded.filter((target) => sources.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan), each sorted; a self-import is one too. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
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
