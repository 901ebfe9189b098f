import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_PACKAGES } from '../preflight/system-packages.ts';

// npm test's preflight (test/preflight/run.ts) as a process, in its three cases: everything present,
// missing and installable (a fake apt-get on a fake PATH; the tests run as root), missing and not
// installable (no apt-get on the PATH). Absolute paths in the list are checked on the real machine, so
// with a fake PATH only the packages found by command are missing.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = join(root, 'test/preflight/run.ts');
const byCommand = SYSTEM_PACKAGES.filter((p) => !p.provides.startsWith('/'));

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

function runPreflight(path: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script], { cwd: root, env: { PATH: path } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A PATH of one folder that holds only the node running the tests. */
async function fakePath(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'vigil-preflight-'));
  await symlink(process.execPath, join(dir, 'node'));
  return dir;
}

describe('npm test preflight', () => {
  it('goes on, saying nothing, when every package is there', async () => {
    const result = await runPreflight(process.env.PATH ?? '');
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('stops with what is missing and the one command that installs it when apt-get cannot run', async () => {
    const result = await runPreflight(await fakePath());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('apt-get is not on the PATH');
    for (const item of byCommand) expect(result.stderr).toContain(`${item.package}: ${item.provides}`);
    const names = byCommand.map((p) => p.package).join(' ');
    expect(result.stderr).toContain(`sudo apt-get update && sudo apt-get install -y ${names}`);
  });

  it('installs exactly the missing packages with apt-get and goes on', async () => {
    const path = await fakePath();
    const log = join(path, 'apt-get.log');
    // The fake apt-get records its calls and, on install, puts each missing command in place.
    const stubs = byCommand.map(
      (p) => `printf '#!/bin/sh\\n' > ${path}/${p.provides}; /bin/chmod +x ${path}/${p.provides}`,
    );
    await writeFile(
      join(path, 'apt-get'),
      [
        '#!/bin/sh',
        `echo "$DEBIAN_FRONTEND $*" >> ${log}`,
        'if [ "$1" = install ]; then',
        ...stubs,
        'fi',
        '',
      ].join('\n'),
    );
    await chmod(join(path, 'apt-get'), 0o755);
    const result = await runPreflight(path);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const names = byCommand.map((p) => p.package);
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
      'noninteractive update -qq',
      `noninteractive install -y -qq ${names.join(' ')}`,
    ]);
    for (const item of byCommand)
      expect(result.stdout).toContain(`preflight: installing ${item.package} (${item.why})`);
    expect(result.stdout).toContain(`preflight: installed ${names.join(', ')}`);
  });
});
