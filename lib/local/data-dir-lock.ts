import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The data directory's lock: one server (or one `vigil restore`) at a time writes a data dir. Two
 * servers on one vigil.db would each run the scheduler (every check probed twice) and each sweep
 * and migrate; a restore under a running server would be overwritten by its next commit.
 *
 * Why an SQLite lock file and not a pid file: the lock is SQLite's own exclusive file lock (fcntl,
 * `locking_mode = EXCLUSIVE` on `vigil.lock`), which the kernel drops when its holder ends however
 * it ends (kill -9, power loss), so there is no stale lock to detect, no pid to misread after a
 * reboot or in a container where the next process gets the dead one's pid. The holder's pid is
 * written beside it (`vigil.pid`) only so a refusal can name the holder: the lock file itself
 * cannot be read while it is held.
 */

const LOCK_FILE = 'vigil.lock';
const PID_FILE = 'vigil.pid';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  /** Releases the lock (idempotent). */
  release(): void;
}

/** The pid the holder wrote (best effort: informative only). */
function holderPid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, PID_FILE), 'utf8'), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data dir's lock for this process, or throws DataDirLockedError (one line, saying what
 * to do) while another process (or another connection of this one) holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const db = new Database(path, { timeout: 0 });
  try {
    // No WAL here: in exclusive locking mode the first write takes the file's EXCLUSIVE lock and keeps
    // it until the connection closes.
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS lock (taken_at TEXT NOT NULL)');
    db.prepare('INSERT INTO lock (taken_at) VALUES (?)').run(new Date().toISOString());
    db.exec('DELETE FROM lock');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const pid = holderPid(dataDir);
    throw new DataDirLockedError(
      `another Vigil process${pid === undefined ? '' : ` (pid ${pid})`} is using the data directory ${dataDir}: stop it first, or set VIGIL_DATA_DIR to another directory`,
    );
  }
  writeFileSync(join(dataDir, PID_FILE), `${process.pid}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(join(dataDir, PID_FILE), { force: true });
      db.close();
    },
  };
}
