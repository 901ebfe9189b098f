import { describe, expect, it } from 'vitest';
import { type PreflightDeps, preflight } from '../preflight/preflight.ts';
import type { SystemPackage } from '../preflight/system-packages.ts';

// The preflight's decisions with a fake machine: the cases a test running as root on Debian cannot
// reach as a process (another system, no root and no sudo, sudo, a failing install).

const java: SystemPackage = { package: 'openjdk-17-jre-headless', provides: 'java', why: 'DynamoDB Local' };
const xmllint: SystemPackage = { package: 'libxml2-utils', provides: '/usr/bin/xmllint', why: 'feeds' };

function machine(over: Partial<PreflightDeps> & { files?: string[] } = {}) {
  const files = new Set(over.files ?? ['/usr/bin/apt-get']);
  const calls: string[] = [];
  const deps: PreflightDeps = {
    isExecutable: (path) => files.has(path),
    path: ['/usr/bin'],
    isDebian: true,
    asRoot: [],
    run: async (command, args) => {
      calls.push([command, ...args].join(' '));
      if (args.includes('install')) files.add('/usr/bin/java');
      return { code: 0, output: '' };
    },
    say: () => {},
    ...over,
  };
  return { deps, calls };
}

describe('preflight rules', () => {
  it('runs nothing when every package is present', async () => {
    const { deps, calls } = machine({ files: ['/usr/bin/java', '/usr/bin/xmllint'] });
    expect(await preflight([java, xmllint], deps)).toEqual({ ok: true, installed: [] });
    expect(calls).toEqual([]);
  });

  it('stops on a system that is not Debian or Ubuntu, naming the command', async () => {
    const { deps, calls } = machine({ isDebian: false, files: ['/usr/bin/xmllint'] });
    const outcome = await preflight([java, xmllint], deps);
    expect(outcome).toMatchObject({
      ok: false,
      missing: [java],
      command: 'sudo apt-get update && sudo apt-get install -y openjdk-17-jre-headless',
    });
    expect(calls).toEqual([]);
  });

  it('stops when the user is neither root nor has passwordless sudo', async () => {
    const { deps, calls } = machine({ asRoot: null });
    expect(await preflight([java], deps)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('root'),
    });
    expect(calls).toEqual([]);
  });

  it('runs apt-get through sudo -n when that is how it gets root', async () => {
    const { deps, calls } = machine({ asRoot: ['sudo', '-n'] });
    expect(await preflight([java], deps)).toEqual({ ok: true, installed: ['openjdk-17-jre-headless'] });
    expect(calls).toEqual([
      'sudo -n apt-get update -qq',
      'sudo -n apt-get install -y -qq openjdk-17-jre-headless',
    ]);
  });

  it('stops when the install leaves the package missing', async () => {
    const { deps } = machine({ run: async () => ({ code: 0, output: '' }) });
    expect(await preflight([java], deps)).toMatchObject({
      ok: false,
      reason: 'installed, yet still not found',
    });
  });

  it('stops when apt-get fails', async () => {
    const { deps } = machine({
      run: async (_c, args) =>
        args.includes('install')
          ? { code: 100, output: 'E: Unable to locate package' }
          : { code: 0, output: '' },
    });
    expect(await preflight([java], deps)).toMatchObject({
      ok: false,
      reason: 'apt-get install failed; its last lines:\nE: Unable to locate package',
    });
  });
});
