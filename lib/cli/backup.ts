import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { lockDataDir } from '../local/data-dir-lock.ts';
import { UsageError } from './operator.ts';

/**
 * `vigil backup <file>` and `vigil restore <file>` of the local runtime's data (docs/deploy.md "Backup and
 * restore"). A backup is SQLite's online backup API (better-sqlite3's `db.backup`) read from its
 * own connection: one read transaction, so the copy is the database as of one commit, WAL frames
 * included, while the server keeps writing (WAL readers do not block the writer). A plain `cp` of
 * vigil.db is not: the commits still in vigil.db-wal are missing from it, and a copy taken
 * mid-checkpoint can be torn.
 */

const DB_FILE = 'vigil.db';
/** Pages per backup step after the first: all of them, so a commit between steps cannot restart it. */
const ALL_PAGES = 0x7fffffff;

/** Columns the items table has in every layout sqlite-schema.ts migrates from. */
const ITEM_COLUMNS = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl', 'data'];

/** Why `file` is not a Vigil database this version can start from, or undefined when it is one. */
function vigilDatabaseProblem(file: string): string | undefined {
  if (!existsSync(file) || !statSync(file).isFile()) return `${file} is not a file`;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') return `${file} is damaged (SQLite quick_check: ${String(check)})`;
    const columns = new Set(
      (db.pragma('table_info(items)') as { name: string }[]).map((column) => column.name),
    );
    const missing = ITEM_COLUMNS.filter((name) => !columns.has(name));
    if (missing.length > 0)
      return `${file} is not a Vigil database (no items table with ${missing.join(', ')})`;
    const changes = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'changes'").get();
    if (!changes) return `${file} is not a Vigil database (no changes table)`;
    return undefined;
  } catch (err) {
    return `${file} is not a Vigil database (${(err as Error).message})`;
  } finally {
    db?.close();
  }
}

/** Copies the data dir's database to `file` with the online backup API; safe while a server runs. */
export async function backupDataDir(dataDir: string, file: string): Promise<string> {
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new UsageError(`no database at ${source} (VIGIL_DATA_DIR)`);
  const target = resolve(file);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    const done = await db.backup(partial, { progress: () => ALL_PAGES });
    const problem = vigilDatabaseProblem(partial);
    if (problem) throw new Error(`the backup did not verify: ${problem}`);
    // Renamed into place whole: an interrupted backup never leaves a half file under the name given.
    renameSync(partial, target);
    return `backed up ${source} to ${target} (${done.totalPages} pages)`;
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces the data dir's database with the backup `file`: refused while a server holds the data
 * dir (its lock, lib/local/data-dir-lock.ts, held through the restore so none starts meanwhile) or
 * when `file` is not a Vigil database. The database it replaces is kept as vigil.db.before-restore.
 */
export async function restoreDataDir(dataDir: string, file: string): Promise<string> {
  const backup = resolve(file);
  const problem = vigilDatabaseProblem(backup);
  if (problem) throw new UsageError(`cannot restore: ${problem}`);
  const lock = lockDataDir(dataDir);
  try {
    const target = join(dataDir, DB_FILE);
    const incoming = `${target}.restoring`;
    rmSync(incoming, { force: true });
    const source = new Database(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(incoming, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    // The old database moves aside with its WAL (a WAL belongs to its database file's name).
    const kept = `${target}.before-restore`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${kept}${suffix}`, { force: true });
    if (existsSync(target)) {
      renameSync(target, kept);
      if (existsSync(`${target}-wal`)) renameSync(`${target}-wal`, `${kept}-wal`);
    }
    rmSync(`${target}-shm`, { force: true });
    renameSync(incoming, target);
    return `restored ${target} from ${backup}${existsSync(kept) ? ` (the previous database is kept as ${kept})` : ''}`;
  } finally {
    lock.release();
  }
}
