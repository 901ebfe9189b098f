import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// A fresh `npm install` prints no install-script warnings: every installed dependency that has an
// install script is named in its project's `allowScripts` (npm 11 warns about the others today and
// will skip their scripts by default). better-sqlite3's implied `node-gyp rebuild` is denied on
// purpose: its package ships Node-API binaries for every platform, so nothing needs compiling.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

type Pending = { allowScripts: { name: string }[] };

describe('install scripts', () => {
  it('are all covered by allowScripts', async () => {
    const { stdout } = await run('npm', ['install-scripts', 'ls', '--json'], {
      cwd: root,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const pending = (JSON.parse(stdout) as Pending).allowScripts.map((entry) => entry.name);
    expect(pending).toEqual([]);
  });
});
