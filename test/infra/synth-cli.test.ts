import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_MODULES } from '../../infra/node-function.ts';
import { offlineCdkEnv } from './synth.ts';

const root = join(import.meta.dirname, '..', '..');
const HOME = 'https://abc123.execute-api.us-east-1.amazonaws.com';
const workdir = mkdtempSync(join(tmpdir(), 'vigil-cdk-cli-'));
const outdir = join(workdir, 'cdk.out');
let run: SpawnSyncReturns<string>;

/**
 * One run of the real CLI for both kinds of stack: the home stack and, with -c vigil:probeRegions,
 * a probe stack (the probe stack's bundle was test/infra/probe-region.test.ts's own CLI run; one
 * synth bundles both, a full bundling run fewer in the system tier).
 */
beforeAll(() => {
  const cdk = join(root, 'node_modules', '.bin', 'cdk');
  const probeRegion = ['-c', 'vigil:probeRegions=eu-west-1', '-c', `vigil:homeApiUrl=${HOME}`];
  const args = ['synth', '--quiet', '--no-version-reporting', '--no-notices', '-o', outdir, ...probeRegion];
  // A bound for a hung CLI, not a speed limit: about 70 s on a quiet machine, past 170 s beside
  // six others' test runs (load 24 on two cores).
  run = spawnSync(cdk, args, { cwd: root, env: offlineCdkEnv(workdir), encoding: 'utf8', timeout: 480_000 });
}, 500_000);
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

interface Bundle {
  asset: string;
  sources: string[];
}

/** A function's bundle as the CLI wrote it: its asset folder and the sources its map names. */
function bundleOf(fn: Resource): Bundle {
  const assetPath = fn.Metadata?.['aws:asset:path'];
  expect(assetPath).toEqual(expect.any(String));
  const asset = join(outdir, String(assetPath));
  expect(readFileSync(join(asset, 'index.mjs'), 'utf8')).toContain('createRequire(import.meta.url)');
  const { sources } = JSON.parse(readFileSync(join(asset, 'index.mjs.map'), 'utf8')) as { sources: string[] };
  // The Lambda runtime provides the SDK; the native SQLite module belongs to the local runtime only.
  expect(sources.filter((s) => /node_modules\/(@aws-sdk|better-sqlite3)\//.test(s))).toEqual([]);
  return { asset, sources };
}

const resourcesOf = (stack: string) =>
  Object.entries(
    (
      JSON.parse(readFileSync(join(outdir, `${stack}.template.json`), 'utf8')) as {
        Resources: Record<string, Resource>;
      }
    ).Resources,
  );

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

describe('cdk synth (the real CLI, offline)', () => {
  it('writes a template with the table, the HTTP API and every function bundled locally as ESM', () => {
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(existsSync(join(outdir, 'Vigil.template.json'))).toBe(true);
    const byId = resourcesOf('Vigil');
    const types = byId.map(([, r]) => r.Type);
    expect(types).toContain('AWS::DynamoDB::Table');
    expect(types).toContain('AWS::ApiGatewayV2::Api');
    expect(types).toContain('AWS::CloudFront::Distribution');

    // Vigil's own functions; CDK's provider copying the console into its bucket is not bundled here.
    const functions = byId
      .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && !id.startsWith('CustomCDKBucketDeployment'))
      .map(([, r]) => r);
    const entries: string[] = [];
    for (const fn of functions) {
      const { asset, sources } = bundleOf(fn);
      const names = sources.flatMap((s) => /functions\/([a-z-]+)\.ts$/.exec(s)?.[1] ?? []);
      entries.push(...names);
      // Every function on Graviton but the browser's and the draft browser's (a region browser
      // function's code): @sparticuz/chromium ships an x64 Chromium only.
      const architecture = names.some((n) => n.endsWith('browser')) ? 'x86_64' : 'arm64';
      expect(fn.Properties).toMatchObject({ Handler: 'index.handler', Architectures: [architecture] });
      // What the function loads only on first use is installed beside the bundle (npm ci, offline).
      for (const module of names.flatMap((name) => LAZY_MODULES[`functions/${name}.ts`] ?? []))
        expect(existsSync(join(asset, 'node_modules', module, 'package.json')), module).toBe(true);
    }
    expect(entries.sort()).toEqual([
      'actions',
      'api',
      'browser',
      'config',
      'generator',
      'mcp',
      'notifier',
      'ping',
      'region-browser',
      'reports',
      'status-stream',
      'stream',
      'worker',
    ]);
  });

  // Moved here from test/infra/probe-region.test.ts (its own CLI run): the same assertions.
  it('with -c vigil:probeRegions, bundles the probe and browser functions locally as ESM, the SDK left to the Lambda runtime', () => {
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const functions = resourcesOf('VigilProbe-eu-west-1').filter(
      ([, r]) => r.Type === 'AWS::Lambda::Function',
    );
    const byEntry = new Map(
      functions.map(([, fn]) => {
        const bundle = bundleOf(fn);
        const entry = bundle.sources.flatMap((s) => /functions\/([a-z-]+)\.ts$/.exec(s)?.[1] ?? []);
        return [entry.join(','), { fn, bundle }] as const;
      }),
    );
    expect([...byEntry.keys()].sort()).toEqual(['probe-region', 'region-browser']);
    expect(byEntry.get('probe-region')?.fn.Properties).toMatchObject({
      Handler: 'index.handler',
      Architectures: ['arm64'],
    });
    // The region's browser function: the home's Chromium (x86_64 only), installed beside the
    // bundle with the runner's child and its playwright-core.
    const browser = byEntry.get('region-browser');
    expect(browser?.fn.Properties).toMatchObject({ Handler: 'index.handler', Architectures: ['x86_64'] });
    const asset = browser?.bundle.asset ?? '';
    for (const module of ['@sparticuz/chromium', 'playwright-core'])
      expect(existsSync(join(asset, 'node_modules', module, 'package.json')), module).toBe(true);
    expect(existsSync(join(asset, 'browser-child.mjs'))).toBe(true);
  });
});
