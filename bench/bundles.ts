import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-options.ts';
import { benchDir } from './child.ts';
import { table } from './markdown.ts';
import { describeCheckout } from './side-by-side.ts';
import { round } from './stats.ts';

/**
 * `--only bundles`: each functions/*.ts bundled as infra/node-function.ts has CDK bundle it (ESM,
 * minified, source maps, the `require` banner, node24, the AWS SDK left to the runtime, and the
 * function's lazy modules, LAZY_MODULES there, left out), then its size and cold init: the time a
 * fresh `node` takes to import the bundle, with dummy environment and no network at import. The
 * bytes are the main file's, which is all a cold start loads; each lazy module is reported apart,
 * bundled alone, as what the first use of its variant loads. With --against, the other
 * checkout's functions side by side (with its own LAZY_MODULES, none before they existed).
 */

/** What a function reads at import; dummy values, nothing is called. */
const dummyEnv: Record<string, string> = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_EC2_METADATA_DISABLED: 'true',
  VIGIL_TABLE_NAME: 'vigil-bench',
  VIGIL_PROBE_QUEUE_URL: 'http://127.0.0.1:9/probe',
  VIGIL_NOTIFY_QUEUE_URL: 'http://127.0.0.1:9/notify',
  VIGIL_ACTION_QUEUE_URL: 'http://127.0.0.1:9/action',
  VIGIL_EVENT_BUS_NAME: 'vigil-bench',
  VIGIL_LOG_LEVEL: 'error',
  POWERTOOLS_TRACE_ENABLED: 'false',
  POWERTOOLS_METRICS_DISABLED: 'true',
};

/** The streaming functions read the Lambda runtime's global `awslambda` at import. */
const importScript = (url: string, sdkFirst: boolean) => `
globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };
${sdkFirst ? SDK.map((m) => `await import('${m}');`).join(' ') : ''}
const t0 = performance.now();
await import(${JSON.stringify(url)});
process.stdout.write(String(performance.now() - t0));`;

/**
 * The AWS SDK clients the functions use: the Lambda runtime provides them, so the bundles leave
 * them out, but loading them is part of every cold start. Imported before the timer, what is left
 * is the bundle's own share.
 */
const SDK = [
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/lib-dynamodb',
  '@aws-sdk/client-sqs',
  '@aws-sdk/client-eventbridge',
];

interface BundleFigure {
  name: string;
  /** The main file (index.mjs in the asset): what the function loads at start. */
  bytes: number;
  /** Packages left out of the bundle and loaded on first use (LAZY_MODULES), each bundled alone. */
  lazy: { module: string; bytes: number }[];
  gzipBytes: number;
  /** Import time of the bundle in a fresh process, per run. */
  initMs: { median: number; p90: number; runs: number };
  /** The same with the AWS SDK clients loaded first: the bundle's own share. */
  ownInitMs: { median: number; p90: number };
}

interface BundleSide {
  commit: string;
  functions: BundleFigure[];
}

export interface BundleFigures {
  this: BundleSide;
  against?: BundleSide;
}

interface Built {
  side: 'this' | 'against';
  name: string;
  outfile: string;
  lazy: { module: string; bytes: number }[];
  samples: number[];
  ownSamples: number[];
}

type LazyModules = Readonly<Record<string, readonly string[]>>;

/**
 * The checkout's LAZY_MODULES and what else a function's bundle leaves out (externalsOf, the
 * features' mounts of the functions that do not compose the app: infra/node-function.ts); none and
 * the SDK in a checkout from before them.
 */
async function lazyModulesOf(
  root: string,
): Promise<{ lazyModules: LazyModules; externalsOf: (entry: string) => string[] }> {
  const infra = (await import(pathToFileURL(join(root, 'infra', 'node-function.ts')).href)) as {
    LAZY_MODULES?: LazyModules;
    externalsOf?: (entry: string) => string[];
  };
  return { lazyModules: infra.LAZY_MODULES ?? {}, externalsOf: infra.externalsOf ?? (() => ['@aws-sdk/*']) };
}

/** A package bundled alone as the functions bundle (minified ESM): what loading it on first use reads. */
async function lazyBytes(root: string, module: string): Promise<number> {
  const out = await build({
    ...BUNDLE_OPTIONS,
    stdin: { contents: `export * from ${JSON.stringify(module)};`, resolveDir: root, loader: 'js' },
    write: false,
  });
  return out.outputFiles[0]?.contents.length ?? 0;
}

/** Builds every functions/*.ts of the checkout at `root` into `outDir/<label>/`. */
async function buildCheckout(root: string, outDir: string, side: Built['side']) {
  const { lazyModules, externalsOf } = await lazyModulesOf(root);
  const sizes = new Map<string, number>();
  const checkout = describeCheckout(root);
  // A checkout that is not a git work tree (e.g. a `git archive` of the previous commit) goes by its folder name.
  const commit = checkout.commit === 'unknown' ? basename(checkout.dir) : checkout.commit;
  const dir = join(outDir, `${side}-${commit}`);
  mkdirSync(dir, { recursive: true });
  const names = readdirSync(join(root, 'functions'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
  const built: Built[] = [];
  for (const name of names) {
    const outfile = join(dir, `${name}.mjs`);
    const lazy = lazyModules[`functions/${name}.ts`] ?? [];
    for (const module of lazy) if (!sizes.has(module)) sizes.set(module, await lazyBytes(root, module));
    await build({
      entryPoints: [join(root, 'functions', `${name}.ts`)],
      ...BUNDLE_OPTIONS,
      outfile,
      sourcemap: true,
      // CDK's nodeModules are externals too (infra/node-function.ts).
      external: [...externalsOf(`functions/${name}.ts`), ...lazy],
    });
    const lazyFigures = lazy.map((module) => ({ module, bytes: sizes.get(module) ?? 0 }));
    built.push({ side, name, outfile, lazy: lazyFigures, samples: [], ownSamples: [] });
  }
  return { commit, built };
}

/** Import time of one bundle in a fresh node process. */
function importOnce(b: Built, sdkFirst = false): number {
  const run = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', importScript(pathToFileURL(b.outfile).href, sdkFirst)],
    // The bundle's external @aws-sdk/* resolves from its place, and the script's from the cwd:
    // both this checkout's node_modules.
    { cwd: benchDir, env: { PATH: process.env.PATH ?? '', ...dummyEnv }, encoding: 'utf8', timeout: 60_000 },
  );
  if (run.status !== 0) throw new Error(`importing ${b.outfile} failed: ${run.stderr}`);
  return Number(run.stdout);
}

/** Nearest-rank quantile. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
};

function figuresOf(commit: string, built: Built[], runs: number): BundleSide {
  return {
    commit,
    functions: built.map((b) => {
      const code = readFileSync(b.outfile);
      return {
        name: b.name,
        bytes: code.length,
        lazy: b.lazy,
        gzipBytes: gzipSync(code).length,
        initMs: { median: round(quantile(b.samples, 0.5)), p90: round(quantile(b.samples, 0.9)), runs },
        ownInitMs: { median: round(quantile(b.ownSamples, 0.5)), p90: round(quantile(b.ownSamples, 0.9)) },
      };
    }),
  };
}

export async function runBundles(options: {
  root: string;
  against?: string;
  runs: number;
  onProgress(line: string): void;
}): Promise<BundleFigures> {
  // bench/results/ is ignored by git: the bundles never enter the repository.
  const outDir = join(benchDir, 'results', 'bundles');
  const mine = await buildCheckout(options.root, outDir, 'this');
  const theirs = options.against ? await buildCheckout(options.against, outDir, 'against') : undefined;
  const all = [...mine.built, ...(theirs?.built ?? [])];
  options.onProgress(`  built ${all.length} bundles; importing each ${options.runs} times, interleaved`);
  // One unmeasured round first (the file cache); then round after round over every bundle of
  // both sides, so the machine's noise falls on both alike.
  for (const b of all) importOnce(b);
  for (let r = 0; r < options.runs; r += 1)
    for (const b of all) {
      b.samples.push(importOnce(b));
      b.ownSamples.push(importOnce(b, true));
    }
  return {
    this: figuresOf(mine.commit, mine.built, options.runs),
    ...(theirs ? { against: figuresOf(theirs.commit, theirs.built, options.runs) } : {}),
  };
}

const kb = (bytes: number) => `${round(bytes / 1024)} KB`;

/** The bundles table; with --against, each function's figures before -> after and the ratio. */
export function formatBundles(f: BundleFigures): string {
  const before = new Map(f.against?.functions.map((fn) => [fn.name, fn]));
  const pct = (now: number, then: number | undefined) => (then ? `${Math.round((now / then) * 100)}%` : '-');
  const rows = f.this.functions.map((fn) => {
    const b = before.get(fn.name);
    return [
      fn.name,
      b ? `${kb(b.bytes)} -> ${kb(fn.bytes)}` : kb(fn.bytes),
      pct(fn.bytes, b?.bytes),
      b ? `${kb(b.gzipBytes)} -> ${kb(fn.gzipBytes)}` : kb(fn.gzipBytes),
      b ? `${b.initMs.median} -> ${fn.initMs.median}` : `${fn.initMs.median}`,
      pct(fn.initMs.median, b?.initMs.median),
      b ? `${b.initMs.p90} -> ${fn.initMs.p90}` : `${fn.initMs.p90}`,
      b ? `${b.ownInitMs.median} -> ${fn.ownInitMs.median}` : `${fn.ownInitMs.median}`,
      pct(fn.ownInitMs.median, b?.ownInitMs.median),
      fn.lazy.map((l) => `${l.module} ${kb(l.bytes)}`).join(', ') || '-',
    ];
  });
  const side = f.against ? `${f.against.commit} -> ${f.this.commit}` : f.this.commit;
  return [
    `\nFunction bundles (${side}; init: a fresh node importing the bundle, ${f.this.functions[0]?.initMs.runs ?? 0} runs):\n`,
    table(
      [
        'function',
        'bytes',
        'of before',
        'gzip',
        'init ms median',
        'of before',
        'init ms p90',
        'without SDK ms median',
        'of before',
        'left out, loaded on first use',
      ],
      rows,
    ),
  ].join('\n');
}
