import type { SystemPackage } from './system-packages.ts';

/** What the preflight reads of the machine and does to it: the real ones in run.ts, fakes in its tests. */
export interface PreflightDeps {
  /** Whether an absolute path exists and is executable. */
  isExecutable(path: string): boolean;
  /** The PATH's directories, in order. */
  path: readonly string[];
  /** Whether this is Debian or Ubuntu (or a derivative: /etc/os-release ID or ID_LIKE names debian). */
  isDebian: boolean;
  /** How to run apt-get as root: [] when root, ['sudo', '-n'] with passwordless sudo, null when neither. */
  asRoot: readonly string[] | null;
  /** Runs a command to its end, its output kept; resolves its exit code and output (stdout and stderr). */
  run(
    command: string,
    args: readonly string[],
    env: Record<string, string>,
  ): Promise<{ code: number; output: string }>;
  /** One line to the user. */
  say(line: string): void;
}

export type PreflightOutcome =
  | { ok: true; installed: string[] }
  | { ok: false; missing: SystemPackage[]; command: string; reason: string };

/** Whether a package's `provides` is found: an absolute path as it is, a command on the PATH. */
function isPresent(item: SystemPackage, deps: Pick<PreflightDeps, 'isExecutable' | 'path'>): boolean {
  if (item.provides.startsWith('/')) return deps.isExecutable(item.provides);
  return deps.path.some((dir) => dir !== '' && deps.isExecutable(`${dir}/${item.provides}`));
}

/** The one command that installs the missing packages, for a human to run. */
function installCommand(missing: readonly SystemPackage[]): string {
  return `sudo apt-get update && sudo apt-get install -y ${missing.map((p) => p.package).join(' ')}`;
}

/**
 * Before `npm test` runs anything: every system package present, go on; some missing on a Debian or
 * Ubuntu machine where apt-get can run as root, install exactly those and go on; otherwise stop with
 * the missing ones and the one command that brings them. Nothing is ever skipped for a missing tool.
 */
export async function preflight(
  packages: readonly SystemPackage[],
  deps: PreflightDeps,
): Promise<PreflightOutcome> {
  const missing = packages.filter((item) => !isPresent(item, deps));
  if (missing.length === 0) return { ok: true, installed: [] };
  const command = installCommand(missing);
  const stop = (reason: string): PreflightOutcome => ({ ok: false, missing, command, reason });
  if (!deps.isDebian) return stop('this is not Debian or Ubuntu, so the preflight cannot install them');
  if (deps.asRoot === null)
    return stop('apt-get needs root, and this user is neither root nor has passwordless sudo');
  if (!isPresent({ package: 'apt', provides: 'apt-get', why: '' }, deps))
    return stop('apt-get is not on the PATH');
  for (const item of missing) deps.say(`preflight: installing ${item.package} (${item.why})`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const [sudo, ...sudoArgs] = deps.asRoot;
  const apt = (args: string[]) =>
    sudo === undefined
      ? deps.run('apt-get', args, env)
      : deps.run(sudo, [...sudoArgs, 'apt-get', ...args], env);
  // apt-get's and dpkg's own lines are kept, and shown only when a step fails.
  const failed = (step: string, output: string) =>
    stop(`apt-get ${step} failed; its last lines:\n${output.trimEnd().split('\n').slice(-15).join('\n')}`);
  const update = await apt(['update', '-qq']);
  if (update.code !== 0) return failed('update', update.output);
  const install = await apt(['install', '-y', '-qq', ...missing.map((p) => p.package)]);
  if (install.code !== 0) return failed('install', install.output);
  const still = missing.filter((item) => !isPresent(item, deps));
  if (still.length > 0) {
    return {
      ok: false,
      missing: still,
      command: installCommand(still),
      reason: 'installed, yet still not found',
    };
  }
  return { ok: true, installed: missing.map((p) => p.package) };
}
