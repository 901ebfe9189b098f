import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_OPTIONS } from '../../bench/bundle-options.ts';
import { APP_FUNCTIONS, externalsOf, LAZY_MODULES, QUEUE_HOST_FUNCTIONS } from '../../infra/node-function.ts';
import { lazyHosts, lazyMounts } from '../architecture/import-graph.ts';

/**
 * What each function's bundle holds and weighs, read from esbuild's metafile of the bundle as
 * infra/node-function.ts builds it (minified, the AWS SDK and the function's LAZY_MODULES left
 * out; the features' mounts out of the functions that do not compose the app). A variant's heavy client (gRPC, RE2, SMTP, NATS, a browser) is loaded only where that
 * variant runs (issue 53): the functions that never probe or send carry none of them, and those
 * that do load them with a dynamic `import()` from the packages installed beside the bundle, never
 * at start. `npm run bench -- --only bundles` measures the sizes and the start; this holds them
 * without timing.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The heavy clients, as the npm packages (and their own dependencies) that make them up. */
const HEAVY = /node_modules\/(@grpc\/|protobufjs\/|re2js\/|nodemailer\/|@nats-io\/|playwright|@sparticuz\/)/;

/** A browser and the Lambda's Chromium: only the browser function's child and its first run load them. */
const BROWSER = /node_modules\/(playwright|@sparticuz\/)/;

/** The functions that run Chromium: the home's browser function and a region's (infra/probe-region.ts). */
const BROWSER_FUNCTIONS = ['browser.ts', 'region-browser.ts'];

/** Issue 53's most for the main file a cold start loads, in KB of 1,024 bytes. */
const BUDGET_KB: Record<string, number> = {
  generator: 400,
  stream: 400,
  worker: 400,
  notifier: 800,
  actions: 800,
  reports: 800,
};

interface Bundle {
  inputs: string[];
  output: Metafile['outputs'][string];
}

const built = new Map<string, Promise<Bundle>>();

/** The function's bundle, built once per file. */
function bundle(name: string): Promise<Bundle> {
  let result = built.get(name);
  if (!result) {
    result = buildBundle(name);
    built.set(name, result);
  }
  return result;
}

async function buildBundle(
  name: string,
  entry = `functions/${name}.ts`,
  external: string[] = [],
): Promise<Bundle> {
  const result = await build({
    ...BUNDLE_OPTIONS,
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    write: false,
    outfile: join(ROOT, 'bundle.mjs'),
    metafile: true,
    external: [...externalsOf(entry), ...(LAZY_MODULES[entry] ?? []), ...external],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  if (!output) throw new Error(`no output for ${entry}`);
  return { inputs: Object.keys(output.inputs), output };
}

describe('function bundles', () => {
  it.each(['generator', 'stream', 'actions', 'reports'])(
    'functions/%s.ts holds no gRPC, RE2, SMTP, NATS or browser client (it neither probes nor sends on them)',
    async (name) => {
      const { inputs } = await bundle(name);

      expect(inputs.length).toBeGreaterThan(50);
      expect(inputs.filter((file) => HEAVY.test(file))).toEqual([]);
    },
  );

  it.each(Object.keys(LAZY_MODULES))(
    '%s leaves its lazy modules out and imports them only with import()',
    async (entry) => {
      const lazy = LAZY_MODULES[entry] ?? [];
      const name = entry.replace(/^functions\/|\.ts$/g, '');

      const { inputs, output } = await bundle(name);

      expect(inputs.filter((file) => HEAVY.test(file))).toEqual([]);
      expect(
        inputs.filter((file) => lazy.some((module) => file.includes(`node_modules/${module}/`))),
      ).toEqual([]);
      const imports = output.imports.filter((i) => lazy.includes(i.path));
      // Each listed module is still reached (the list is not stale), and only by a dynamic import.
      expect([...new Set(imports.map((i) => i.path))].sort()).toEqual([...lazy].sort());
      expect(imports.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
    },
  );

  it.each(
    readdirSync(join(ROOT, 'functions'))
      .filter((file) => file.endsWith('.ts') && !BROWSER_FUNCTIONS.includes(file))
      .map((file) => file.replace(/\.ts$/, '')),
  )('functions/%s.ts carries neither playwright-core nor @sparticuz/chromium', async (name) => {
    const { inputs, output } = await bundle(name);

    expect(inputs.filter((file) => BROWSER.test(file))).toEqual([]);
    expect(output.imports.filter((i) => /^(playwright|@sparticuz\/)/.test(i.path))).toEqual([]);
  });

  /** The feature list's mounts (lib/features/list.ts's lazy imports), as the bundles' metafiles name them. */
  const listFile = join(ROOT, 'lib', 'features', 'list.ts');
  const mounts = [...lazyMounts(listFile, readFileSync(listFile, 'utf8'))].map((file) =>
    relative(ROOT, file),
  );
  const functionNames = readdirSync(join(ROOT, 'functions'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.replace(/\.ts$/, ''));

  it.each(functionNames)(
    'functions/%s.ts holds the feature list’s mounts if it composes the app, else none (their loaders stay, never called)',
    async (name) => {
      const { inputs, output } = await bundle(name);
      const routeModules = inputs.filter((file) => /routes\.ts$/.test(file));

      expect(mounts.length).toBeGreaterThan(5);
      if (APP_FUNCTIONS.includes(`functions/${name}.ts`)) {
        expect(inputs).toContain('lib/app.ts');
        expect(mounts.filter((file) => !inputs.includes(file))).toEqual([]);
        expect(output.imports.filter((i) => /routes\.ts$/.test(i.path))).toEqual([]);
        return;
      }
      expect(inputs).not.toContain('lib/app.ts');
      expect(routeModules).toEqual([]);
      const leftOut = output.imports.filter((i) => /routes\.ts$/.test(i.path));
      expect(leftOut.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
      // A function that loads the list keeps each of its mount loaders, and only those.
      if (inputs.includes('lib/features/list.ts'))
        expect(new Set(leftOut.map((i) => relative(ROOT, join(listFile, '..', i.path))))).toEqual(
          new Set(mounts),
        );
      else expect(leftOut).toEqual([]);
    },
  );

  /** The feature list's job hosts (its other lazy imports), as the bundles' metafiles name them. */
  const hosts = [...lazyHosts(listFile, readFileSync(listFile, 'utf8'))].map((file) => relative(ROOT, file));

  it.each(functionNames)(
    'functions/%s.ts holds the feature list’s job hosts if it runs the notify queue, else none',
    async (name) => {
      const { inputs, output } = await bundle(name);
      const leftOut = output.imports.filter((i) => /job-host\.ts$/.test(i.path));

      expect(hosts.length).toBeGreaterThan(1);
      if (QUEUE_HOST_FUNCTIONS.includes(`functions/${name}.ts`)) {
        expect(inputs).toContain('lib/features/job-hosts.ts');
        expect(hosts.filter((file) => !inputs.includes(file))).toEqual([]);
        expect(leftOut).toEqual([]);
        return;
      }
      expect(inputs).not.toContain('lib/features/job-hosts.ts');
      expect(inputs.filter((file) => /job-host\.ts$/.test(file))).toEqual([]);
      expect(leftOut.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
      if (inputs.includes('lib/features/list.ts'))
        expect(new Set(leftOut.map((i) => relative(ROOT, join(listFile, '..', i.path))))).toEqual(
          new Set(hosts),
        );
      else expect(leftOut).toEqual([]);
    },
  );

  it('the browser function child (bundled beside it, infra/browser.ts) imports playwright-core from the asset, never bundles it', async () => {
    const child = await buildBundle('browser-child', 'lib/probes/browser/browser-child.ts', [
      'playwright-core',
    ]);

    expect(child.inputs.filter((file) => BROWSER.test(file))).toEqual([]);
    expect(child.output.imports.filter((i) => i.path === 'playwright-core').map((i) => i.kind)).toEqual([
      'import-statement',
    ]);
  });

  it.each(['worker', 'generator', 'notifier', 'actions', 'reports'])(
    'functions/%s.ts loads no S3 client (it neither writes, reads nor deletes artifacts)',
    async (name) => {
      const { output } = await bundle(name);

      expect(output.imports.filter((i) => i.path === '@aws-sdk/client-s3')).toEqual([]);
    },
  );

  it.each(['browser', 'api', 'stream'])(
    'functions/%s.ts imports the S3 client of the artifacts bucket (writes, reads, purges) at its first use, not at start',
    async (name) => {
      const { output } = await bundle(name);

      expect(output.imports.filter((i) => i.path === '@aws-sdk/client-s3').map((i) => i.kind)).toEqual([
        'dynamic-import',
      ]);
    },
  );

  it('functions/probe-region.ts imports the Lambda client at its first browser leg, not at start', async () => {
    const { output } = await bundle('probe-region');

    expect(output.imports.filter((i) => i.path === '@aws-sdk/client-lambda').map((i) => i.kind)).toEqual([
      'dynamic-import',
    ]);
  });

  it.each(Object.entries(BUDGET_KB))('functions/%s.ts bundles to at most %i KB', async (name, budget) => {
    const { output } = await bundle(name);

    expect(output.bytes / 1024).toBeLessThanOrEqual(budget);
  });
});
