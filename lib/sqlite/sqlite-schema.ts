import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** The sqlite engine's schema: one items table shaped like the DynamoDB table, and the change outbox. */

// A rowid table with a unique (pk, sk) index, not a WITHOUT ROWID table keyed by (pk, sk): rows
// carry the whole item (often 0.5-1 KB) and WITHOUT ROWID b-trees keep whole rows in their
// interior pages, so with rows that size every lookup walked a deep tree and every commit
// dirtied many pages (measured 3-4x slower point reads, 2x slower writes; docs/performance.md).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS items (
  id INTEGER PRIMARY KEY,
  pk TEXT NOT NULL,
  sk TEXT NOT NULL,
  gsi1pk TEXT,
  gsi1sk TEXT,
  gsi2pk TEXT,
  gsi2sk TEXT,
  ttl NUMERIC,
  data TEXT NOT NULL -- the whole item as JSON
);
CREATE UNIQUE INDEX IF NOT EXISTS items_key ON items (pk, sk);
CREATE INDEX IF NOT EXISTS items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk) WHERE gsi1pk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_gsi2 ON items (gsi2pk, gsi2sk, pk, sk) WHERE gsi2pk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_ttl ON items (ttl) WHERE ttl IS NOT NULL;
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  record TEXT NOT NULL -- a Change as JSON (older rows: a DynamoDB Streams record; sqlite-outbox.ts reads both)
);
`;

const ITEM_COLUMNS = 'pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data';

/** True when `items` still has the first layout (WITHOUT ROWID, keyed by pk and sk). */
function hasFirstLayout(db: Database.Database): boolean {
  const row: unknown = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'items'")
    .get();
  return (
    typeof row === 'object' &&
    row !== null &&
    'sql' in row &&
    typeof row.sql === 'string' &&
    /WITHOUT\s+ROWID/i.test(row.sql)
  );
}

/** Creates the tables and indexes if they are missing, moving a first-layout `items` table over (idempotent). */
export function migrate(db: Database.Database): void {
  db.transaction(() => {
    if (hasFirstLayout(db)) {
      db.exec(`
        DROP INDEX IF EXISTS items_gsi1;
        DROP INDEX IF EXISTS items_gsi2;
        DROP INDEX IF EXISTS items_ttl;
        ALTER TABLE items RENAME TO items_first_layout;
      `);
      db.exec(SCHEMA);
      db.exec(`INSERT INTO items (${ITEM_COLUMNS}) SELECT ${ITEM_COLUMNS} FROM items_first_layout;`);
      db.exec('DROP TABLE items_first_layout;');
    } else {
      db.exec(SCHEMA);
    }
  }).immediate();
}

/** Opens (creating if needed) a SQLite file for the local runtime: WAL, synchronous=NORMAL, busy timeout. */
export function openSqliteDatabase(path: string): Database.Database {
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

export interface ItemRow {
  pk: string;
  sk: string;
  gsi1pk: string | null;
  gsi1sk: string | null;
  gsi2pk: string | null;
  gsi2sk: string | null;
  ttl: number | null;
  data: string;
}

function indexKey(
  item: Record<string, unknown>,
  pkAttr: string,
  skAttr: string,
): [string | null, string | null] {
  const pk = item[pkAttr];
  const sk = item[skAttr];
  // A GSI holds only items that carry both of its key attributes (DynamoDB's sparse indexes).
  return typeof pk === 'string' && typeof sk === 'string' ? [pk, sk] : [null, null];
}

/** The row for an item (already JSON-normalised); `data` is its JSON text when the caller has it. */
export function toRow(
  item: Record<string, unknown>,
  pk: string,
  sk: string,
  data: string = JSON.stringify(item),
): ItemRow {
  const [gsi1pk, gsi1sk] = indexKey(item, 'gsi1pk', 'gsi1sk');
  const [gsi2pk, gsi2sk] = indexKey(item, 'gsi2pk', 'gsi2sk');
  const ttl = typeof item.ttl === 'number' && Number.isFinite(item.ttl) ? item.ttl : null;
  return { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data };
}
