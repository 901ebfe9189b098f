import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-cli-'));

/** Runs the operator CLI as `npm run vigil` does (tsx bin/vigil.ts) over a local data directory. */
function vigil(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/vigil.ts', ...args],
      { cwd: root, env: { ...process.env, VIGIL_DATA_DIR: dataDir, VIGIL_STORE: 'sqlite' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('npm run vigil -- key create (the process)', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the new key of an existing tenant and exits 0', async () => {
    const tenant = await vigil(['tenant', 'create', '--name', 'Acme', '--email', 'ops@acme.test']);
    expect(tenant.code, tenant.stderr).toBe(0);
    const tenantId = JSON.parse(tenant.stdout).tenant_id as string;

    const issued = await vigil(['key', 'create', '--tenant', tenantId, '--read-only']);

    expect(issued.code, issued.stderr).toBe(0);
    expect(JSON.parse(issued.stdout)).toMatchObject({ tenant_id: tenantId, is_read_only: true });
    expect(JSON.parse(issued.stdout).api_key).toMatch(/^vgl_/);
  });

  it('says an unknown tenant is unknown, prints no key and exits 1', async () => {
    const res = await vigil(['key', 'create', '--tenant', 'tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV']);

    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      'error: there is no tenant tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV; `npm run vigil -- tenant list` shows the tenants and their ids',
    );
  });
});
