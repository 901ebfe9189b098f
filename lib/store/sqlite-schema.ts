import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** The sqlite engine's schema: one items table shaped like the DynamoDB table, and the change outbox. */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS items (
  pk TEXT NOT NULL,
  sk TEXT NOT NULL,
  gsi1pk TEXT,
  gsi1sk TEXT,
  gsi2pk TEXT,
  gsi2sk TEXT,
  ttl NUMERIC,
  data TEXT NOT NULL, -- the whole item as JSON
  PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk) WHERE gsi1pk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_gsi2 ON items (gsi2pk, gsi2sk, pk, sk) WHERE gsi2pk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_ttl ON items (ttl) WHERE ttl IS NOT NULL;
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  record TEXT NOT NULL -- a DynamoDB Streams record as JSON
);
`;

/** Creates the tables and indexes if they are missing (idempotent). */
export function migrate(db: Database.Database): void {
  db.exec(SCHEMA);
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

/** The row for an item (already JSON-normalised). */
export function toRow(item: Record<string, unknown>, pk: string, sk: string): ItemRow {
  const [gsi1pk, gsi1sk] = indexKey(item, 'gsi1pk', 'gsi1sk');
  const [gsi2pk, gsi2sk] = indexKey(item, 'gsi2pk', 'gsi2sk');
  const ttl = typeof item.ttl === 'number' && Number.isFinite(item.ttl) ? item.ttl : null;
  return { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data: JSON.stringify(item) };
}
