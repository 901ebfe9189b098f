// `npm test`'s first step (issue 79): the system packages the tests need, present or installed, or a
// stop in the first second saying what is missing and the one command that brings it.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { preflight } from './preflight.ts';
import { SYSTEM_PACKAGES } from './system-packages.ts';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDebian(): boolean {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release);
  } catch {
    return false;
  }
}

const path = (process.env.PATH ?? '').split(delimiter);

function asRoot(): readonly string[] | null {
  if (process.getuid?.() === 0) return [];
  // sudo -n fails at once instead of asking for a password.
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : null;
}

const outcome = await preflight(SYSTEM_PACKAGES, {
  isExecutable,
  path,
  isDebian: isDebian(),
  get asRoot() {
    return asRoot();
  },
  run: (command, args, env) =>
    new Promise((resolve) => {
      const child = spawn(command, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-64 * 1024);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', (error) => resolve({ code: 127, output: error.message }));
      child.on('close', (code) => resolve({ code: code ?? 1, output }));
    }),
  say: (line) => console.log(line),
});

if (!outcome.ok) {
  console.error(`preflight: npm test needs system packages that are missing (${outcome.reason}):`);
  for (const item of outcome.missing) console.error(`  ${item.package}: ${item.provides} (${item.why})`);
  console.error(`Install them with:\n  ${outcome.command}`);
  process.exit(1);
}
if (outcome.installed.length > 0) console.log(`preflight: installed ${outcome.installed.join(', ')}`);
