import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAZY_MODULES } from '../../infra/node-function.ts';
import { offlineCdkEnv } from './synth.ts';

const root = join(import.meta.dirname, '..', '..');
const workdir = mkdtempSync(join(tmpdir(), 'vigil-cdk-cli-'));
const outdir = join(workdir, 'cdk.out');

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

describe('cdk synth (the real CLI, offline)', () => {
  it('writes a template with the table, the HTTP API and every function bundled locally as ESM', () => {
    // Prepare
    const cdk = join(root, 'node_modules', '.bin', 'cdk');
    const args = ['synth', '--quiet', '--no-version-reporting', '--no-notices', '-o', outdir];

    // Act
    const run = spawnSync(cdk, args, {
      cwd: root,
      env: offlineCdkEnv(workdir),
      encoding: 'utf8',
      timeout: 170_000,
    });

    // Assess
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const templatePath = join(outdir, 'Vigil.template.json');
    expect(existsSync(templatePath)).toBe(true);
    const byId = Object.entries(
      (JSON.parse(readFileSync(templatePath, 'utf8')) as { Resources: Record<string, Resource> }).Resources,
    );
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
      expect(fn.Properties).toMatchObject({ Handler: 'index.handler', Architectures: ['arm64'] });
      const assetPath = fn.Metadata?.['aws:asset:path'];
      expect(assetPath).toEqual(expect.any(String));
      const asset = join(outdir, String(assetPath));
      const bundle = readFileSync(join(asset, 'index.mjs'), 'utf8');
      expect(bundle).toContain('createRequire(import.meta.url)');
      const { sources } = JSON.parse(readFileSync(join(asset, 'index.mjs.map'), 'utf8')) as {
        sources: string[];
      };
      const names = sources.flatMap((s) => /functions\/([a-z-]+)\.ts$/.exec(s)?.[1] ?? []);
      entries.push(...names);
      // What the function loads only on first use is installed beside the bundle (npm ci, offline).
      for (const module of names.flatMap((name) => LAZY_MODULES[`functions/${name}.ts`] ?? []))
        expect(existsSync(join(asset, 'node_modules', module, 'package.json')), module).toBe(true);
      // The Lambda runtime provides the SDK; the native SQLite module belongs to the local runtime only.
      expect(sources.filter((s) => /node_modules\/(@aws-sdk|better-sqlite3)\//.test(s))).toEqual([]);
    }
    expect(entries.sort()).toEqual([
      'actions',
      'api',
      'config',
      'generator',
      'mcp',
      'notifier',
      'reports',
      'status-stream',
      'stream',
      'worker',
    ]);
  }, 180_000);
});
