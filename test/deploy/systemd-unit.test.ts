import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// deploy/vigil.service is checked by systemd's own tools (.ci/run installs systemd for
// systemd-analyze): `verify` parses it as systemd would load it, and `security --offline` scores its
// sandbox. container.test.ts boots it under systemd in a container.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const unitPath = join(root, 'deploy', 'vigil.service');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vigil-unit-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** systemd-analyze's verdict on a unit file: exit code, and what it printed (warnings included). */
async function analyze(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('systemd-analyze', args, {
      env: { ...process.env, SYSTEMD_COLORS: '0' },
    });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * A copy of the unit whose ExecStart names a Node that exists on this machine (verify refuses a
 * command that is not there; /opt/vigil is where an operator installs, not this checkout), with
 * `edit` applied to the text.
 */
function unitCopy(
  name: string,
  edit: (text: string) => string = (t) => t,
  source: string = unitPath,
): string {
  const text = readFileSync(source, 'utf8').replace(
    /^ExecStart=\/opt\/vigil\/node_modules\/\.bin\/node /m,
    `ExecStart=${process.execPath} `,
  );
  const path = join(dir, name);
  writeFileSync(path, edit(text));
  return path;
}

describe('deploy/vigil.service', () => {
  it('starts the production tree with its state in /var/lib/vigil', () => {
    const text = readFileSync(unitPath, 'utf8');
    expect(text).toMatch(/^ExecStart=\/opt\/vigil\/node_modules\/\.bin\/node bin\/serve\.ts$/m);
    expect(text).toMatch(/^Environment=VIGIL_DATA_DIR=\/var\/lib\/vigil$/m);
    expect(text).toMatch(/^StateDirectory=vigil$/m);
    for (const line of [
      'DynamicUser=yes',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/vigil',
      'NoNewPrivileges=yes',
      'PrivateTmp=yes',
      'ProtectHome=yes',
      'CapabilityBoundingSet=',
      // Browser checks' bounds (docs/scripted-checks.md "Bounds") and what Chromium's sandbox needs.
      'MemoryMax=3G',
      'TasksMax=4096',
      'RestrictNamespaces=user pid net',
      'SystemCallFilter=chroot',
    ])
      expect(text.split('\n')).toContain(line);
    expect(text).toMatch(/^RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX/m);
    // V8 compiles code into memory it then executes: this option would kill the service at start.
    expect(text).not.toMatch(/^MemoryDenyWriteExecute=yes/m);
  });

  it('passes systemd-analyze verify without a warning', async () => {
    const clean = await analyze(['verify', unitCopy('vigil.service')]);
    expect(clean).toEqual({ code: 0, output: '' });
    // The check sees a misspelt option (systemd ignores it with a warning) and a bad value.
    const misspelt = await analyze([
      'verify',
      unitCopy('misspelt.service', (t) => t.replace('PrivateTmp=', 'PrivateTemp=')),
    ]);
    expect(misspelt.output).toMatch(/Unknown key 'PrivateTemp'/);
    const bad = await analyze([
      'verify',
      unitCopy('bad.service', (t) => t.replace('ProtectSystem=strict', 'ProtectSystem=maybe')),
    ]);
    expect(bad.output).toMatch(/Failed to parse protect system value/);
  });

  it("scores 'OK' (exposure at most 2.0 of 10) in systemd-analyze security", async () => {
    // --threshold is on a 0-100 scale: the command fails when the exposure exceeds 2.0.
    const args = (path: string) => ['security', '--offline=yes', '--threshold=20', path];
    const hardened = await analyze(args(unitCopy('vigil.service')));
    expect(hardened.code, hardened.output).toBe(0);
    expect(hardened.output).toMatch(/Overall exposure level for vigil\.service: [0-2]\.\d OK/);
    // The same service without its sandbox fails the threshold: the score measures the options.
    const bare = unitCopy('bare.service', (t) => t.slice(0, t.indexOf('# A user of its own')));
    expect((await analyze(args(bare))).code).not.toBe(0);
  });
});

describe('deploy/vigil-agent.service', () => {
  const agentUnit = join(root, 'deploy', 'vigil-agent.service');

  it("bounds the agent's browser runs and lets Chromium make its sandbox, as the server's unit does", () => {
    const lines = readFileSync(agentUnit, 'utf8').split('\n');
    for (const line of [
      'MemoryMax=3G',
      'TasksMax=4096',
      'RestrictNamespaces=user pid net',
      'SystemCallFilter=chroot',
    ])
      expect(lines).toContain(line);
  });

  it('runs the agent with its key as a systemd credential, never on its command line', () => {
    const text = readFileSync(agentUnit, 'utf8');
    expect(text).toMatch(
      /^ExecStart=\/opt\/vigil\/node_modules\/\.bin\/node bin\/vigil\.ts agent --key-file \$\{CREDENTIALS_DIRECTORY\}\/location-key /m,
    );
    expect(text).toMatch(/^LoadCredential=location-key:\/etc\/vigil\/location-key$/m);
    expect(text).not.toMatch(/--key /);
    for (const line of [
      'DynamicUser=yes',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
      'CapabilityBoundingSet=',
    ])
      expect(text.split('\n')).toContain(line);
  });

  it("passes systemd-analyze verify and scores 'OK' in systemd-analyze security", async () => {
    const copy = unitCopy('vigil-agent.service', (t) => t, agentUnit);
    expect(await analyze(['verify', copy])).toEqual({ code: 0, output: '' });
    const security = await analyze(['security', '--offline=yes', '--threshold=20', copy]);
    expect(security.code, security.output).toBe(0);
    expect(security.output).toMatch(/Overall exposure level for vigil-agent\.service: [0-2]\.\d OK/);
  });
});
