import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const ROOTS = ['lib', 'test', 'functions', 'infra', 'bin', 'bench', 'docs', '.ci', 'web', 'deploy'];
/** Output folders git ignores: a fresh clone does not have them until a benchmark has run. */
const GENERATED = ['bench/results/', 'web/dist'];

/** The documents a reader follows: their file paths must name files and folders that exist. */
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * Repository paths a document mentions: inline code that starts with one of ROOTS (fenced blocks
 * left out: they show commands and trees), relative Markdown link targets, resolved from the
 * document's folder, and the files a command in a fenced block sends (curl's `-d @file`, run from
 * the repository's root). `<name>` and `*` are placeholders that must match at least one entry.
 */
function mentionedPaths(document: string, text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  const paths = new Set<string>();
  for (const [fence] of text.matchAll(/^```[\s\S]*?^```/gm)) {
    for (const [, file] of fence.matchAll(/(?:-d|--data|--data-binary)\s+@([^\s'"\\]+)/g))
      if (file && file !== '-') paths.add(file);
  }
  for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) {
    const candidate = code?.trim() ?? '';
    const inRoot = ROOTS.includes(candidate.split('/')[0] ?? '');
    if (/^[\w.-]+\/\S*$/.test(candidate) && inRoot && !GENERATED.some((g) => candidate.startsWith(g)))
      paths.add(candidate);
  }
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = target?.split('#')[0] ?? '';
    if (link === '' || /^[a-z]+:/i.test(link)) continue;
    paths.add(relative(ROOT, normalize(join(ROOT, dirname(document), link))));
  }
  return [...paths];
}

/** Whether `path` (with `<name>` and `*` placeholders per segment) names something in the repository. */
function pathExists(path: string): boolean {
  const segments = path.replace(/\/$/, '').split('/');
  let candidates = [ROOT];
  for (const segment of segments) {
    if (!/[<*]/.test(segment)) {
      candidates = candidates.map((dir) => join(dir, segment)).filter((p) => existsSync(p));
      continue;
    }
    const pattern = new RegExp(
      `^${segment
        .split(/(<[^>]+>|\*)/)
        .map((part) =>
          part === '*' || part.startsWith('<') ? '.+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    );
    candidates = candidates
      .filter((dir) => statSync(dir).isDirectory())
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((name) => pattern.test(name))
          .map((name) => join(dir, name)),
      );
  }
  return candidates.length > 0;
}

describe('paths the documentation mentions', () => {
  it('finds paths in inline code and links, with placeholders, and tells missing ones apart', () => {
    const text = [
      'See `lib/catalog/compose.ts`, `lib/<feature>/records.ts` and `npm test`.',
      '```',
      'lib/not/in/prose.ts',
      '```',
      'Also [the API](api.md#errors), [home](https://example.com) and `lib/nowhere/<type>.ts`.',
      '```sh',
      'curl -X POST -d @web/src/skills/catalog-ops.json https://x/v1/skills',
      "curl -d @missing.json -d '{}' -d @- https://x",
      '```',
    ].join('\n');
    const paths = mentionedPaths('docs/guide.md', text);
    expect(paths.sort()).toEqual(
      [
        'docs/api.md',
        'lib/<feature>/records.ts',
        'lib/catalog/compose.ts',
        'lib/nowhere/<type>.ts',
        'missing.json',
        'web/src/skills/catalog-ops.json',
      ].sort(),
    );
    expect(paths.filter((p) => !pathExists(p)).sort()).toEqual(['lib/nowhere/<type>.ts', 'missing.json']);
  });

  it.each(DOCUMENTS)('%s names only files and folders that exist', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    const paths = mentionedPaths(document, text);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !pathExists(p))).toEqual([]);
  });
});
