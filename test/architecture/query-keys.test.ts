import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One data layer in the console (CONTRIBUTING.md "The console's reads"): query keys are built only
 * by the key factories in `web/src/<area>/queries.ts` (TanStack Query's factory convention), so a
 * resource is invalidated by its root and no page invents a key another page cannot find. Outside
 * those files no literal array may be a query key: not as `queryKey`, not as the key given to the
 * query client's methods, not as a key refreshed by `useRefreshOnChange`.
 */

const WEB = resolve(import.meta.dirname, '..', '..', 'web', 'src');
const CLIENT_METHODS = new Set([
  'invalidateQueries',
  'removeQueries',
  'refetchQueries',
  'cancelQueries',
  'resetQueries',
  'setQueryData',
  'getQueryData',
  'setQueriesData',
  'ensureQueryData',
  'prefetchQuery',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isArray = (node: ts.Node | undefined) => node !== undefined && ts.isArrayLiteralExpression(node);

/** Where `source` writes a literal array as a query key, as "line: text". */
function literalKeys(source: string, name = 'file.tsx'): string[] {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${line + 1}: ${node.getText().slice(0, 80)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'queryKey' && isArray(node.initializer))
      report(node);
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
      if (CLIENT_METHODS.has(method) && isArray(node.arguments[0])) report(node);
      const keys = node.arguments[1];
      if (method === 'useRefreshOnChange' && keys && ts.isArrayLiteralExpression(keys)) {
        for (const key of keys.elements) if (isArray(key)) report(key);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('the console builds query keys only in its key factories', () => {
  it('finds a literal key in each place one can be written (the check can fail)', () => {
    const sample = [
      "useQuery({ queryKey: ['checks'], queryFn });",
      "queryClient.invalidateQueries({ queryKey: ['checks'] });",
      "queryClient.setQueryData(['action', id], saved);",
      "useRefreshOnChange(x, [['results', id]]);",
      'useQuery({ queryKey: checkKeys.all, queryFn });',
      'useRefreshOnChange(x, [checkKeys.results(id)]);',
    ].join('\n');
    expect(literalKeys(sample).map((l) => l.split(':')[0])).toEqual(['1', '2', '3', '4']);
  });

  it('has no literal key array outside web/src/*/queries.ts', () => {
    const offending = sourceFiles(WEB)
      .filter((f) => !f.endsWith(`${sep}queries.ts`))
      .flatMap((f) =>
        literalKeys(readFileSync(f, 'utf8'), f).map((l) => `${relative(WEB, f).split(sep).join('/')}:${l}`),
      );
    expect(offending).toEqual([]);
  });
});
