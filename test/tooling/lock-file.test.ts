import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// `npm install` on a fresh clone must leave package-lock.json as committed, and `npm ci` must
// accept it. Offline with an empty cache: a complete lock needs no registry, so this runs anywhere.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory holding only the project's npm inputs, and an empty npm cache beside them. */
function copyOfManifest(project: string): { dir: string; cache: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-lock-'));
  dirs.push(dir);
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    const source = join(root, project, file);
    if (existsSync(source)) copyFileSync(source, join(dir, file));
  }
  return { dir, cache: mkdtempSync(join(dir, 'cache-')) };
}

async function npm(dir: string, cache: string, args: string[]): Promise<void> {
  await run('npm', [...args, '--ignore-scripts', '--offline', '--no-audit', '--no-fund', '--cache', cache], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

describe('package-lock.json', () => {
  const project = '.';
  it('comes out of npm install unchanged, and npm ci accepts it', async () => {
    const { dir, cache } = copyOfManifest(project);
    const committed = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    await npm(dir, cache, ['install', '--package-lock-only']);
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(committed);
    // Rejects with EUSAGE when the lock misses an entry npm's own tree expects.
    await npm(dir, cache, ['ci', '--dry-run']);
  }, 120_000);
});
