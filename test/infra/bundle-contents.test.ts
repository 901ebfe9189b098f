import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LAZY_MODULES } from '../../infra/node-function.ts';

/**
 * What each function's bundle holds, read from esbuild's metafile of the bundle as
 * infra/node-function.ts builds it (the AWS SDK and the function's LAZY_MODULES left out). A
 * variant's heavy client (gRPC, RE2, SMTP, NATS, a browser) is loaded only where that variant runs
 * (issue 53): the functions that never probe or send carry none of them, and those that do load
 * them with a dynamic `import()` from the packages installed beside the bundle, never at start.
 * `npm run bench -- --only bundles` measures the sizes; this keeps the contents without timing.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The heavy clients, as the npm packages (and their own dependencies) that make them up. */
const HEAVY = /node_modules\/(@grpc\/|protobufjs\/|re2js\/|nodemailer\/|@nats-io\/|playwright)/;

async function bundle(name: string): Promise<{ inputs: string[]; output: Metafile['outputs'][string] }> {
  const entry = `functions/${name}.ts`;
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outfile: join(ROOT, 'bundle.mjs'),
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*', ...(LAZY_MODULES[entry] ?? [])],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  if (!output) throw new Error(`no output for ${entry}`);
  return { inputs: Object.keys(output.inputs), output };
}

describe('function bundles', () => {
  it.each(['generator', 'stream', 'actions'])(
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
      const imports = output.imports.filter((i) => lazy.includes(i.path));
      // Each listed module is still reached (the list is not stale), and only by a dynamic import.
      expect([...new Set(imports.map((i) => i.path))].sort()).toEqual([...lazy].sort());
      expect(imports.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
    },
  );
});
