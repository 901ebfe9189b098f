import { readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a browser run lives and as whom. Each run gets a directory of its own under the host's
 * temp directory (mode 0700), which is its child's TMPDIR and HOME: Playwright puts Chromium's
 * profile (user-data-dir) and its artifacts there, Chromium its caches; the runner removes it when
 * the run ends, whatever the end. A server killed mid-run cannot, so a runner starting removes the
 * directories of servers no longer running (each is named for its server's pid).
 *
 * When the server runs as root, the run runs as another user (`nobody` unless named): Chromium
 * refuses its sandbox to root, and that user cannot read the server's data directory (0700, the
 * server's). An unprivileged server cannot change user: its run is its own user, with Chromium's
 * sandbox on (the renderer, where a page's code runs, then sees no file system at all).
 */

const ROOM_PREFIX = 'vigil-browser-';

/** A user the run takes: its ids. */
export interface RunUser {
  name: string;
  uid: number;
  gid: number;
}

/** `name`'s ids from /etc/passwd; a clear error when it has none there. */
function lookUpUser(name: string, passwd = '/etc/passwd'): RunUser {
  for (const line of readFileSync(passwd, 'utf8').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined)
      return { name, uid: Number(uid), gid: Number(gid) };
  }
  throw new Error(`the browser runs' user ${name} is not in ${passwd}`);
}

/** The user runs take: `name` (default nobody) when this process is root; none (its own) otherwise. */
export function runUser(name?: string): RunUser | undefined {
  return process.getuid?.() === 0 ? lookUpUser(name ?? 'nobody') : undefined;
}

/** A new run's directory, owned by the run's user. */
export async function makeRoom(user: RunUser | undefined): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${ROOM_PREFIX}${process.pid}-`));
  await chmod(dir, 0o700);
  if (user) await chown(dir, user.uid, user.gid);
  return dir;
}

/** The environment a run's child gets on top of the runner's: its directory as TMPDIR and HOME. */
export const roomEnv = (dir: string): Record<string, string> => ({
  TMPDIR: dir,
  HOME: dir,
  XDG_CONFIG_HOME: join(dir, '.config'),
  XDG_CACHE_HOME: join(dir, '.cache'),
});

export const removeRoom = (dir: string) => rm(dir, { recursive: true, force: true, maxRetries: 3 });

/** Whether a process with this pid runs (one of another user's counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the run directories that servers no longer running left in the host's temp directory. */
export async function sweepRooms(): Promise<void> {
  let entries: string[] = [];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = new RegExp(`^${ROOM_PREFIX}(\\d+)-`).exec(entry)?.[1];
    if (owner !== undefined && !alive(Number(owner))) await removeRoom(join(tmpdir(), entry));
  }
}
