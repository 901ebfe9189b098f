import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configCli, resolveReferences } from '../../lib/cli/config-cli.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';

/**
 * `vigil export`, `vigil plan` and `vigil apply` against a real local runtime over HTTP: plan's
 * exit statuses (0 nothing to change, 2 changes), apply's progress lines and summary, `${NAME}`
 * references resolved from the CLI's environment (set ones only), and the words for a refused key.
 */

/** A document of one blueprint and two entities; the second entity's name is an environment reference. */
const DOCUMENT = `apiVersion: vigil/v1
kind: Config
blueprints:
  - slug: service
    name: Service
entities:
  - blueprint: service
    slug: api
    name: Checkout API
  - blueprint: service
    slug: web
    name: \${WEB_NAME}
`;

/** Collects what a command writes. */
function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('vigil export, plan and apply (local runtime over HTTP)', () => {
  let api: LocalHarness;
  let dir: string;

  /** Runs `vigil <args>` in-process against the harness; answers the exit status and the output. */
  const vigil = async (args: string[], env: Record<string, string> = {}) => {
    const stdout = sink();
    const stderr = sink();
    const [command, ...rest] = args as ['export' | 'plan' | 'apply', ...string[]];
    const code = await configCli(command, rest, {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin: new PassThrough(),
      env: { VIGIL_URL: api.local.url, VIGIL_API_KEY: api.adminKey, ...env },
    });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  };

  beforeAll(async () => {
    api = await startLocalHarness();
    dir = mkdtempSync(join(tmpdir(), 'vigil-config-cli-'));
    writeFileSync(join(dir, 'vigil.yaml'), DOCUMENT);
  });
  afterAll(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves whole-value references the environment sets, in YAML and JSON, and leaves the rest', () => {
    const env = { TOKEN: 'a "quoted" value', OTHER: 'x' };
    expect(resolveReferences(`token: \${TOKEN}\nkeep: \${UNSET}\n`, env)).toBe(
      `token: "a \\"quoted\\" value"\nkeep: \${UNSET}\n`,
    );
    expect(resolveReferences(`{"token": "\${TOKEN}", "list": ['\${OTHER}']}`, env)).toBe(
      '{"token": "a \\"quoted\\" value", "list": ["x"]}',
    );
    expect(resolveReferences(`url: https://x/\${TOKEN}/y\n`, env)).toBe(`url: https://x/\${TOKEN}/y\n`);
  });

  it('plans changes with exit status 2 and changes nothing', async () => {
    const planned = await vigil(['plan', '-f', join(dir, 'vigil.yaml')], { WEB_NAME: 'Storefront' });
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('+ create blueprint service');
    expect(planned.stdout).toContain('+ create entity service/web');
    expect(planned.stdout).toContain('Plan: 3 to create, 0 to update, 0 to delete.');
    expect((await api.request('GET', '/v1/blueprints/service', { key: api.adminKey })).status).toBe(404);
  });

  it('applies with progress lines and a summary, the references resolved; then plans nothing (exit 0)', async () => {
    const file = join(dir, 'vigil.yaml');
    const applied = await vigil(['apply', '-f', file, '--yes'], { WEB_NAME: 'Storefront' });
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('✓ create entity service/api');
    expect(applied.stdout).toContain('Applied: 3 created, 0 updated, 0 deleted, 0 failed');
    const web = await api.request('GET', '/v1/blueprints/service/entities/web', { key: api.adminKey });
    expect(web.body).toMatchObject({ name: 'Storefront' });
    const again = await vigil(['plan', '-f', file], { WEB_NAME: 'Storefront' });
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toContain('No changes.');
    const renamed = await vigil(['plan', '-f', file], { WEB_NAME: 'Shop' });
    expect(renamed.code).toBe(2);
    expect(renamed.stdout).toContain('~ update entity service/web\n    name: "Storefront" → "Shop"');
  });

  it('refuses to apply without --yes when stdin is not a terminal', async () => {
    const renamed = await vigil(['apply', '-f', join(dir, 'vigil.yaml')], { WEB_NAME: 'Shop' });
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain('pass --yes');
    const web = await api.request('GET', '/v1/blueprints/service/entities/web', { key: api.adminKey });
    expect(web.body).toMatchObject({ name: 'Storefront' });
  });

  it('exports the tenant as YAML to a file and as JSON to stdout', async () => {
    const out = join(dir, 'export.yaml');
    const written = await vigil(['export', '-o', out]);
    expect(written.code, written.stderr).toBe(0);
    const yaml = readFileSync(out, 'utf8');
    expect(yaml).toContain('apiVersion: vigil/v1');
    expect(yaml).toMatch(/slug: web/);
    const json = await vigil(['export', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ apiVersion: 'vigil/v1', kind: 'Config' });
  });

  it('says a wrong key was refused, and where the key comes from', async () => {
    const refused = await vigil(['export'], { VIGIL_API_KEY: 'vgl_wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/refused the key \(401: .*\); check --key or VIGIL_API_KEY/);
  });

  it('names what is missing: the server, the key, the file', async () => {
    const noUrl = await configCli('plan', ['-f', 'x.yaml'], {
      stdout: sink().stream,
      stderr: sink().stream,
      stdin: new PassThrough(),
      env: {},
    });
    expect(noUrl).toBe(1);
    const noFile = await vigil(['plan']);
    expect(noFile).toMatchObject({ code: 1 });
    expect(noFile.stderr).toContain('pass -f <file>');
  });
});
