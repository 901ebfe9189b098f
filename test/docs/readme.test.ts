import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** README's lines, counted as an editor numbers them (a final newline ends the last line). */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The docs/*.md files README links to, as Markdown links (`[…](docs/name.md)`, an anchor allowed). */
const linkedDocs = (readme: string) =>
  new Set([...readme.matchAll(/\]\(docs\/([\w.-]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]));

describe('README: a newcomer finds their way in', () => {
  it('is at most 200 lines', () => {
    expect(lineCount(read('README.md'))).toBeLessThanOrEqual(200);
  });

  it('links every docs/*.md, each on a line of its own in the map', () => {
    const readme = read('README.md');
    const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(docs.length).toBeGreaterThan(0);
    const linked = linkedDocs(readme);
    expect(docs.filter((name) => !linked.has(name))).toEqual([]);
    // The map: one list item per doc, saying what it holds after the link.
    const map = readme
      .split('\n')
      .filter((line) => /^- \[docs\/[\w.-]+\.md\]\(docs\/[\w.-]+\.md\) — \S/.test(line));
    expect(
      docs.filter((name) => !map.some((line) => line.startsWith(`- [docs/${name}](docs/${name})`))),
    ).toEqual([]);
  });

  it('counts lines and finds links as meant', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect([...linkedDocs('[x](docs/a.md) [y](docs/b.md#part) docs/c.md (docs/d.md)')]).toEqual([
      'a.md',
      'b.md',
    ]);
  });
});

describe('README and CONTRIBUTING', () => {
  it('docs/aws.md gives the Node.js version the CDK stack runs the Lambdas on', () => {
    const runtime = /Runtime\.NODEJS_(\d+)_X/.exec(read('infra/node-function.ts'))?.[1];
    expect(runtime).toBeDefined();
    const stated = [...read('docs/aws.md').matchAll(/Lambda \(Node\.js (\d+)/g)].map((m) => m[1]);
    expect(stated.length).toBeGreaterThan(0);
    expect(new Set(stated)).toEqual(new Set([runtime]));
  });

  it('point readers to docs/api.md and the OpenAPI document', () => {
    const readme = read('README.md');
    expect(readme).toContain('(docs/api.md)');
    expect(readme).toContain('`GET /v1/openapi.json`');
  });

  it.each(['README.md', 'CONTRIBUTING.md'])('%s names only Markdown files the repository holds', (doc) => {
    const names = [...read(doc).matchAll(/[\w./-]*\b[\w-]+\.md\b/g)].map((m) => m[0]);
    expect(names.length).toBeGreaterThan(0);
    const missing = names.filter(
      (name) => !existsSync(join(ROOT, name)) && !existsSync(join(ROOT, 'docs', name)),
    );
    expect(missing).toEqual([]);
  });
});
