import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

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
