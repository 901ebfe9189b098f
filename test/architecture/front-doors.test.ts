import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Front doors (issue 38): a folder of lib/ shows the rest of the code base its top-level files;
 * its subfolders are private. No file outside `lib/<f>/` imports `lib/<f>/<sub>/…`, so a folder
 * can reorganise its insides without touching its callers, and a caller cannot come to depend on
 * an internal (lib/checks' cells stay behind `lib/checks/results.ts`).
 *
 * Production code (lib, functions, infra, bin, web) never reaches in. Tests (test/) and benches
 * (bench/) may: they exercise the parts where they live (a channel definition's `send`, a check
 * type's probe, a cell's lease after a crash in test/local) and seed stored items as their owner
 * writes them (test/support's cell fixtures). What the rule protects is production code's
 * independence from a folder's insides; a test that reaches in moves with the part it tests.
 * Imports are read with TypeScript's own pre-processor (imports.test.ts), so type-only imports,
 * re-exports and dynamic imports all count.
 *
 * A front door is small (issue 53): a folder of lib/ with more than 25 .ts files (its subfolders
 * counted) shows at most 10 top-level files; the rest lives in private subfolders named by theme.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIB = join(ROOT, 'lib');
const SCANNED = ['lib', 'functions', 'infra', 'bin', 'web/src'];

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A folder of lib/ is big past this many .ts files (subfolders counted)… */
const BIG_FOLDER = 25;
/** …and a big folder shows at most this many top-level files. */
const FACE_MAX = 10;
/**
 * Rooms (issue 76 point 2): a folder of lib/ with subfolders shows at most this many top-level files
 * whatever its size, its themes in the rooms behind them…
 */
const ROOMS_FACE_MAX = 10;
/** …lib/catalog (entities, relations, blueprints) at most six… */
const NARROW_FACES: Record<string, number> = { catalog: 6 };
/**
 * …and these, each at its width today: an entry only shrinks, and goes at ten (lib/contacts and
 * lib/oncall took their eleventh with their feature's routes face, feature-routes.ts).
 */
const WIDE_WITH_ROOMS: Record<string, number> = { contacts: 11, oncall: 11, probes: 13 };

/** A folder's .ts files: how many at its top level, how many in all (subfolders counted); its subfolders. */
interface FolderSize {
  top: number;
  all: number;
  rooms: number;
}

function folderSizes(): Record<string, FolderSize> {
  return Object.fromEntries(
    readdirSync(LIB, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => {
        const dir = join(LIB, entry.name);
        const all = sourceFiles(dir).filter((file) => file.endsWith('.ts'));
        const rooms = readdirSync(dir, { withFileTypes: true }).filter((sub) => sub.isDirectory()).length;
        return [
          entry.name,
          { top: all.filter((file) => dirname(file) === dir).length, all: all.length, rooms },
        ];
      }),
  );
}

/** The big folders whose face is too wide, as `folder: <top> top-level files of <all>`. */
function wideFaces(sizes: Record<string, FolderSize>): string[] {
  return Object.entries(sizes)
    .filter(([, size]) => size.all > BIG_FOLDER && size.top > FACE_MAX)
    .map(([folder, size]) => `${folder}: ${size.top} top-level files of ${size.all}`)
    .sort();
}

/** The folders with rooms whose face is wider than their bar, as `folder: <top> top-level files (at most <bar>)`. */
function wideRoomFaces(sizes: Record<string, FolderSize>): string[] {
  return Object.entries(sizes)
    .map(([folder, size]) => ({
      folder,
      size,
      bar: NARROW_FACES[folder] ?? WIDE_WITH_ROOMS[folder] ?? ROOMS_FACE_MAX,
    }))
    .filter(({ size, bar }) => size.rooms > 0 && size.top > bar)
    .map(({ folder, size, bar }) => `${folder}: ${size.top} top-level files (at most ${bar})`)
    .sort();
}

/** The private part a relative import lands in: `lib/<f>/<sub>/…` gives `f`, anything else undefined. */
function privateFolderOf(target: string): string | undefined {
  const parts = relative(LIB, target).split(sep);
  if (parts[0] === '..' || parts.length < 3) return undefined;
  return parts[0];
}

/** Whether `file` (repository-relative, with `/`) may import the private parts of lib/<folder>. */
function mayReachInto(file: string, folder: string): boolean {
  return file.startsWith(`lib/${folder}/`);
}

/** Every `file -> target` import of `source` (at `file`) that reaches into another folder's subfolders. */
function breaches(file: string, source: string): string[] {
  const from = relative(ROOT, file).split(sep).join('/');
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => {
      const target = resolve(dirname(file), specifier);
      const folder = privateFolderOf(target);
      if (folder === undefined || mayReachInto(from, folder)) return [];
      return [`${from} -> ${relative(ROOT, target).split(sep).join('/')}`];
    });
}

describe('front doors', () => {
  const files = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)));

  it('keeps every folder of lib/ private below its top level', () => {
    expect(files.length).toBeGreaterThan(400);
    const found = files.flatMap((file) => breaches(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('sees an import into another folder’s subfolder (the check above can fail)', () => {
    const caller = join(ROOT, 'lib', 'status', 'example.ts');
    const source = [
      "import { a } from '../notify/channels/email-smtp.ts';",
      "export type { B } from '../checks/cells/cell-items.ts';",
      "const c = await import('../mcp/builtins/index.ts');",
      "import { d } from '../notify/compose.ts';",
      "import { e } from './stream/hub.ts';",
      "import { f } from '../checks/results.ts';",
    ].join('\n');

    expect(breaches(caller, source)).toEqual([
      'lib/status/example.ts -> lib/notify/channels/email-smtp.ts',
      'lib/status/example.ts -> lib/checks/cells/cell-items.ts',
      'lib/status/example.ts -> lib/mcp/builtins/index.ts',
    ]);
  });

  it('gives lib/checks a small face (at most 9 top-level files)', () => {
    const face = readdirSync(join(LIB, 'checks'), { withFileTypes: true }).filter((entry) => entry.isFile());
    expect(face.length).toBeLessThanOrEqual(9);
  });

  it('gives every big folder of lib/ a small face (over 25 .ts files: at most 10 top-level)', () => {
    const sizes = folderSizes();
    expect(Object.keys(sizes)).toEqual(
      expect.arrayContaining(['auth', 'check-types', 'checks', 'domain', 'mcp', 'notify', 'people', 'push']),
    );
    expect(wideFaces(sizes)).toEqual([]);
  });

  it('sees a big folder with a wide face (the check above can fail)', () => {
    expect(
      wideFaces({
        wide: { top: 11, all: 26, rooms: 1 },
        small: { top: 20, all: 25, rooms: 0 },
        split: { top: 10, all: 40, rooms: 3 },
        flat: { top: 26, all: 26, rooms: 0 },
      }),
    ).toEqual(['flat: 26 top-level files of 26', 'wide: 11 top-level files of 26']);
  });

  it('gives every folder of lib/ with rooms a face of at most 10 top-level files (lib/catalog: 6)', () => {
    const sizes = folderSizes();
    expect(sizes.catalog?.rooms).toBeGreaterThan(0);
    expect(wideRoomFaces(sizes)).toEqual([]);
  });

  it('lists each wide face with rooms at its width today, so the list only shrinks', () => {
    const sizes = folderSizes();
    const today = Object.fromEntries(
      Object.keys(WIDE_WITH_ROOMS).map((folder) => [folder, sizes[folder]?.top]),
    );
    expect(today).toEqual(WIDE_WITH_ROOMS);
  });

  it('sees a face wider than its rooms allow (the checks above can fail)', () => {
    expect(
      wideRoomFaces({
        roomy: { top: 11, all: 20, rooms: 1 },
        flat: { top: 24, all: 24, rooms: 0 },
        fine: { top: 10, all: 30, rooms: 2 },
        catalog: { top: 7, all: 30, rooms: 4 },
        probes: { top: 13, all: 22, rooms: 1 },
      }),
    ).toEqual(['catalog: 7 top-level files (at most 6)', 'roomy: 11 top-level files (at most 10)']);
  });

  it('gives lib/notify a small face (at most 10 top-level files)', () => {
    const face = readdirSync(join(LIB, 'notify'), { withFileTypes: true }).filter((entry) => entry.isFile());
    expect(face.map((entry) => entry.name).length).toBeLessThanOrEqual(10);
  });

  it('keeps lib/notify private below its top level (no caller imports lib/notify/<sub>/…)', () => {
    const found = files.flatMap((file) =>
      breaches(file, readFileSync(file, 'utf8')).filter((breach) => breach.includes(' -> lib/notify/')),
    );
    expect(found).toEqual([]);
  });

  it('finds no import circle among lib/notify/channels’ files', () => {
    const dir = join(LIB, 'notify', 'channels');
    expect(circles(sourceFiles(dir).filter((file) => dirname(file) === dir))).toEqual([]);
  });

  it('sees an import circle (the check above can fail)', () => {
    const a = join(LIB, 'notify', 'channels', 'a.ts');
    const b = join(LIB, 'notify', 'channels', 'b.ts');
    const c = join(LIB, 'notify', 'channels', 'c.ts');
    const sources = new Map([
      [a, "import type { B } from './b.ts';"],
      [b, "import { c } from './c.ts';"],
      [c, "export type { A } from './a.ts';"],
    ]);
    expect(circles([a, b, c], (file) => sources.get(file) ?? '')).toEqual([
      'lib/notify/channels/a.ts -> lib/notify/channels/b.ts -> lib/notify/channels/c.ts -> lib/notify/channels/a.ts',
    ]);
  });
});

/** Each import circle among `files` (only imports between them count), as `a -> b -> … -> a`, once. */
function circles(files: string[], read = (file: string) => readFileSync(file, 'utf8')): string[] {
  const inside = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      ts
        .preProcessFile(read(file), true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(dirname(file), specifier))
        .filter((target) => inside.has(target)),
    ]),
  );
  const name = (file: string) => relative(ROOT, file).split(sep).join('/');
  const found = new Set<string>();
  const walk = (path: string[]) => {
    const last = path[path.length - 1] as string;
    for (const next of edges.get(last) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0] as string);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...turned, turned[0] as string].map(name).join(' -> '));
      } else if (path.length < 12) walk([...path, next]);
    }
  };
  for (const file of [...files].sort()) walk([file]);
  return [...found].sort();
}
