import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// A fresh `npm install` prints no install-script warnings: every installed dependency that has an
// install script is named in its project's `allowScripts` (npm 11 warns about the others today and
// will skip their scripts by default; better-sqlite3 and node@22 would then be missing their binaries).

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

type Pending = { allowScripts: { name: string }[] };

describe.each(['.', 'tools/mcp-inspector'])('install scripts of %s', (project) => {
  it('are all covered by allowScripts', async () => {
    const { stdout } = await run('npm', ['install-scripts', 'ls', '--json'], {
      cwd: join(root, project),
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const pending = (JSON.parse(stdout) as Pending).allowScripts.map((entry) => entry.name);
    expect(pending).toEqual([]);
  });
});

describe('the Node version README states', () => {
  it('is the range package.json declares', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const engines = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    expect(engines).toBe('^20.19.0 || >=22.12.0');
    expect(readme).toContain('Requirements: Node.js 22.12 or newer (24 recommended');
    expect(readme).toContain('Node.js 20.19 or newer in the 20 line also works');
  });
});
