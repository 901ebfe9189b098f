import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ITEM_DEFINITIONS } from '../../lib/store/item-definition.ts';

/**
 * One owner per stored item (docs/data-model.md, CONTRIBUTING.md "A stored item type"): each item
 * type is defined once with `defineItem` in its owner module (`lib/<feature>/<thing>-items.ts`),
 * which imports only lib/store, lib/domain, lib/platform and lib/check-types (the check types whose
 * config a check item holds) and exports named reads and write
 * builders. No other file builds keys, writes raw ops or reads the table itself; lib folders import
 * each other one way; and docs/data-model.md shows every item type as its definition keys it.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIB = join(ROOT, 'lib');
/** Owners' allowed imports: the store, the pure domain, the platform, the check types (a check item's config). */
const OWNER_AREAS = new Set(['store', 'domain', 'platform', 'check-types']);
/** The store and its two engines (lib/sqlite, lib/dynamodb): the only code that writes raw ops and reads tables. */
const STORE_AREAS = new Set(['store', 'sqlite', 'dynamodb']);
const RAW_OP_TYPES = new Set(['put', 'update', 'delete', 'conditionCheck']);
const TABLE_READS = new Set(['get', 'query', 'batchGet']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = tsFiles(LIB);
const rel = (file: string) => relative(LIB, file).split(sep).join('/');
const areaOf = (file: string) => rel(file).split('/')[0] ?? '';
const sourceOf = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

function relativeImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name));
}

/** Every call of `name(...)` (a plain identifier) in the file. */
function calls(file: string, names: ReadonlySet<string>): number {
  let count = 0;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text))
      count += 1;
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(file));
  return count;
}

/** `file:line what` for each raw write op literal and each read of a table in the file. */
function storeAccess(file: string): string[] {
  const sf = sourceOf(file);
  const found: string[] = [];
  const at = (node: ts.Node) => `${rel(file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === 'type' &&
      ts.isStringLiteral(node.initializer) &&
      RAW_OP_TYPES.has(node.initializer.text)
    ) {
      found.push(`${at(node)} raw ${node.initializer.text} op`);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && (callee.text === 'stamp' || callee.text === 'itemType'))
        found.push(`${at(node)} ${callee.text}()`);
      if (
        ts.isPropertyAccessExpression(callee) &&
        TABLE_READS.has(callee.name.text) &&
        /table$/i.test(callee.expression.getText())
      ) {
        found.push(`${at(node)} ${callee.getText()}()`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const owners = files.filter(
  (file) => !STORE_AREAS.has(areaOf(file)) && calls(file, new Set(['defineItem'])) > 0,
);

describe('one owner per stored item', () => {
  it('defines item types only in owner modules named <thing>-items.ts (or in lib/store)', () => {
    expect(owners.length).toBeGreaterThan(20);
    expect(owners.map(rel).filter((name) => !name.endsWith('-items.ts'))).toEqual([]);
  });

  it('keeps each definition inside its owner module (never exported)', () => {
    const exported = owners.filter((file) =>
      /export\s+(const|let)\s+\w+\s*=\s*defineItem\(/.test(readFileSync(file, 'utf8')),
    );
    expect(exported.map(rel)).toEqual([]);
  });

  it('lets owner modules import only lib/store, lib/domain, lib/platform and lib/check-types', () => {
    const outside = owners.flatMap((file) =>
      relativeImports(file)
        .filter((target) => !OWNER_AREAS.has(areaOf(target)))
        .map((target) => `${rel(file)} -> ${rel(target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('keeps raw write ops, stamps and table reads inside owner modules, lib/store and its engines', () => {
    const ownerSet = new Set(owners);
    const strays = files
      .filter((file) => !STORE_AREAS.has(areaOf(file)) && !ownerSet.has(file))
      .flatMap(storeAccess);
    expect(strays).toEqual([]);
  });

  it('sees a stray raw op, stamp or table read (the check above can fail)', () => {
    const probe = join(LIB, 'checks', 'services', 'check-service.ts');
    expect(storeAccess(probe)).toEqual([]);
    // The same rules applied to an owner module find what it does: they are not blind.
    const owner = owners.find((file) => rel(file) === 'checks/check-items.ts');
    expect(owner && storeAccess(owner).length).toBeGreaterThan(0);
  });

  it('has lib folders import each other one way (no cycle between folders)', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of files) {
      const from = areaOf(file);
      for (const target of relativeImports(file)) {
        const to = areaOf(target);
        if (to === from || !target.startsWith(LIB)) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
    // A folder on a cycle reaches itself.
    const reaches = (start: string): Set<string> => {
      const seen = new Set<string>();
      const stack = [...(edges.get(start) ?? [])];
      while (stack.length > 0) {
        const next = stack.pop() as string;
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(edges.get(next) ?? []));
      }
      return seen;
    };
    const onCycles = [...edges.keys()].filter((folder) => reaches(folder).has(folder)).sort();
    expect(onCycles).toEqual([]);
  });
});

describe('docs/data-model.md', () => {
  beforeAll(async () => {
    for (const file of owners) await import(file);
    await import('../../lib/store/cursor-secret.ts');
  });

  it('shows every item type as its definition gives its key', () => {
    const rows = readFileSync(join(ROOT, 'docs', 'data-model.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const missing = ITEM_DEFINITIONS.filter((definition) => !definition.entity.startsWith('test_'))
      .filter(
        (definition) =>
          !rows.some(
            ([, entity, version, pk, sk]) =>
              (entity ?? '').startsWith(`\`${definition.entity}\``) &&
              version === String(definition.version) &&
              (pk ?? '').includes(`\`${definition.key.pk}\``) &&
              (sk ?? '').includes(`\`${definition.key.sk}\``),
          ),
      )
      .map(
        (definition) =>
          `${definition.entity} v${definition.version} ${definition.key.pk} ${definition.key.sk}`,
      );
    expect(ITEM_DEFINITIONS.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });
});
