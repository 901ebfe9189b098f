import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, lazyHosts, lazyMounts } from './import-graph.ts';

/**
 * The queue-driven functions compose only what they run (lib/cloud/*-composition.ts): their
 * bundles are a fraction of the api function's and they build no routes at start-up
 * (`npm run bench -- --only bundles` measures it). This keeps it so without timing: the import
 * graph of each such function does not reach the app's composition, the router, MCP, the console
 * or any routes module.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const LEAN = ['worker', 'generator', 'stream', 'notifier', 'actions', 'reports'];

/** Paths (relative to the repository) the lean functions must not import, directly or not. */
const FORBIDDEN: RegExp[] = [
  /^lib\/app\.ts$/,
  /^lib\/cloud\/http-composition\.ts$/,
  /^lib\/http\/(router|openapi|define-route)\.ts$/,
  /^lib\/mcp\//,
  /^lib\/skills\//,
  /^web\//,
  /(^|\/)[a-z-]*routes\.ts$/,
  // The local runtime's choice of probe transport: it would bring undici into the worker.
  /^lib\/probes\/probe-transport\.ts$/,
  // The HTTP functions' Tracer (X-Ray): the lean functions do not load it.
  /^lib\/cloud\/tracing\.ts$/,
];

/**
 * The modules that load what the feature list names lazily (its `import()`s): the mounts, by the
 * API composition's; the job hosts, by the notify queue's host.
 */
const LOADERS: [string, (target: string) => boolean][] = [
  [join(ROOT, 'lib', 'features', 'feature-routes.ts'), (target) => target.endsWith('-routes.ts')],
  [join(ROOT, 'lib', 'features', 'job-hosts.ts'), (target) => target.endsWith('job-host.ts')],
];

/**
 * Every file the entry reaches through relative imports (type-only ones included: they are cheap
 * to keep out too). The feature list's mounts and job hosts, which it imports lazily, are reached
 * only where the module that loads them is.
 */
function reach(entry: string): Map<string, string> {
  const via = new Map<string, string>([[entry, relative(ROOT, entry)]]);
  const queue = [entry];
  const lazy: [string, string][] = [];
  const visit = (from: string, target: string) => {
    if (via.has(target)) return;
    via.set(target, `${via.get(from)} -> ${relative(ROOT, target)}`);
    queue.push(target);
  };
  for (;;) {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const imports = importsOf(file, readFileSync(file, 'utf8'));
      for (const target of imports.loaded) visit(file, target);
      for (const target of imports.lazy) lazy.push([file, target]);
    }
    const loaded = lazy.filter(([, target]) =>
      LOADERS.some(([loader, loads]) => via.has(loader) && loads(target)),
    );
    if (loaded.length === 0) return via;
    for (const [from, target] of loaded) visit(from, target);
    lazy.splice(0, lazy.length, ...lazy.filter((edge) => !loaded.includes(edge)));
  }
}

describe('lean functions', () => {
  it.each(LEAN)('functions/%s.ts reaches no routes, router, MCP, console or the whole app', (name) => {
    const graph = reach(join(ROOT, 'functions', `${name}.ts`));

    const found = [...graph.entries()]
      .filter(([file]) => FORBIDDEN.some((pattern) => pattern.test(relative(ROOT, file))))
      .map(([, chain]) => chain);

    expect(graph.size).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });

  it.each(LEAN)(
    'functions/%s.ts imports no Powertools Tracer (only the HTTP functions are traced)',
    (name) => {
      const files = [...reach(join(ROOT, 'functions', `${name}.ts`)).keys()];

      const tracer = files.filter((f) => /@aws-lambda-powertools\/tracer/.test(readFileSync(f, 'utf8')));

      expect(files.length).toBeGreaterThan(10);
      expect(tracer.map((f) => relative(ROOT, f))).toEqual([]);
    },
  );

  // undici (523 KB of a bundle) is how channels and actions send; the functions that never send skip it
  // (the notifier and the action worker load it on their first send: lib/egress/undici-client.ts).
  const importsUndici = (f: string) => /from 'undici'|import\('undici'\)/.test(readFileSync(f, 'utf8'));

  it.each(['worker', 'generator', 'stream'])('functions/%s.ts imports no undici (it never sends)', (name) => {
    const files = [...reach(join(ROOT, 'functions', `${name}.ts`)).keys()];

    expect(files.length).toBeGreaterThan(10);
    expect(files.filter(importsUndici).map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('finds undici where it is (the notifier sends with it)', () => {
    const files = [...reach(join(ROOT, 'functions', 'notifier.ts')).keys()];

    expect(files.filter(importsUndici).length).toBeGreaterThan(0);
  });

  // The SES client and nodemailer are how email channels send: only functions that send load them.
  const importsMail = (f: string) =>
    /from '(@aws-sdk\/client-sesv2|nodemailer)'/.test(readFileSync(f, 'utf8'));

  it.each(['worker', 'generator', 'stream', 'actions'])(
    'functions/%s.ts imports neither the SES client nor nodemailer (it never sends email)',
    (name) => {
      const files = [...reach(join(ROOT, 'functions', `${name}.ts`)).keys()];

      expect(files.length).toBeGreaterThan(10);
      expect(files.filter(importsMail).map((f) => relative(ROOT, f))).toEqual([]);
    },
  );

  it('finds the SES client where it is (the notifier sends email through it), and no nodemailer there', () => {
    const files = [...reach(join(ROOT, 'functions', 'notifier.ts')).keys()];

    expect(
      files.filter((f) => /from '@aws-sdk\/client-sesv2'/.test(readFileSync(f, 'utf8'))).length,
    ).toBeGreaterThan(0);
    expect(files.filter((f) => /from 'nodemailer'/.test(readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('finds the Tracer where it is (the api function)', () => {
    const files = [...reach(join(ROOT, 'functions', 'api.ts')).keys()];

    expect(
      files.filter((f) => /@aws-lambda-powertools\/tracer/.test(readFileSync(f, 'utf8'))).length,
    ).toBeGreaterThan(0);
  });

  it('finds what it forbids when it is there (the api function composes the whole app)', () => {
    const graph = [...reach(join(ROOT, 'functions', 'api.ts')).keys()].map((f) => relative(ROOT, f));

    expect(graph).toContain('lib/app.ts');
    expect(graph.filter((f) => FORBIDDEN.some((p) => p.test(f))).length).toBeGreaterThan(10);
  });

  it('reaches the feature list’s mounts only through the API composition, which loads them', () => {
    const list = join(ROOT, 'lib', 'features', 'list.ts');
    const mounts = [...lazyMounts(list, readFileSync(list, 'utf8'))].map((f) => relative(ROOT, f));
    const api = [...reach(join(ROOT, 'functions', 'api.ts')).keys()].map((f) => relative(ROOT, f));
    const notifier = [...reach(join(ROOT, 'functions', 'notifier.ts')).keys()].map((f) => relative(ROOT, f));

    expect(mounts).toEqual(
      expect.arrayContaining(['lib/features/core-routes.ts', 'lib/reports/feature-routes.ts']),
    );
    expect(mounts.filter((file) => !api.includes(file))).toEqual([]);
    expect(notifier).toContain('lib/features/list.ts');
    expect(notifier.filter((file) => mounts.includes(file))).toEqual([]);
  });

  it('reaches the feature list’s job hosts only through the notify queue’s host (the app, the notifier)', () => {
    const list = join(ROOT, 'lib', 'features', 'list.ts');
    const hosts = [...lazyHosts(list, readFileSync(list, 'utf8'))].map((f) => relative(ROOT, f));
    const graph = (name: string) =>
      [...reach(join(ROOT, 'functions', `${name}.ts`)).keys()].map((f) => relative(ROOT, f));

    expect(hosts).toEqual(['lib/status-pages/job-host.ts', 'lib/handover/job-host.ts']);
    for (const name of ['api', 'notifier'])
      expect(hosts.filter((file) => !graph(name).includes(file))).toEqual([]);
    const stream = graph('stream');
    expect(stream).toContain('lib/features/list.ts');
    expect(stream.filter((file) => hosts.includes(file))).toEqual([]);
  });

  it('takes only the list’s lazy mount entries for lazy: a static import of a route module there, or a lazy one elsewhere, is loaded', () => {
    const list = join(ROOT, 'lib', 'features', 'list.ts');
    const source = [
      "import { healthMount } from './core-routes.ts';",
      "const a = [mountOnly('teams', () => import('../teams/feature-routes.ts').then((m) => m.teamsMount))];",
    ].join('\n');

    expect([...lazyMounts(list, source)].map((f) => relative(ROOT, f))).toEqual([
      'lib/teams/feature-routes.ts',
    ]);
    // The same module imported statically and lazily: the static import is loaded.
    const both = `${source}\nconst b = () => import('./core-routes.ts').then((m) => m.healthMount);`;
    expect(importsOf(list, both).loaded.map((f) => relative(ROOT, f))).toEqual([
      'lib/features/core-routes.ts',
    ]);
    expect(importsOf(list, both).lazy.map((f) => relative(ROOT, f))).toEqual([
      'lib/teams/feature-routes.ts',
      'lib/features/core-routes.ts',
    ]);
    expect([...lazyMounts(join(ROOT, 'lib', 'features', 'other.ts'), source)]).toEqual([]);
  });

  it("imports zod as a namespace everywhere in lib/ and functions/ (esbuild keeps all of zod's locales for `import { z }`)", () => {
    const files = ['lib', 'functions'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(ROOT, dir, f)),
    );

    const named = files.filter((f) =>
      /^import \{[^}]*\bz\b[^}]*\} from 'zod';/m.test(readFileSync(f, 'utf8')),
    );

    expect(files.length).toBeGreaterThan(100);
    expect(named.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
