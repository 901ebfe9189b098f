import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

/** The first on-disk layout, as databases written before the rowid layout have it. */
const FIRST_LAYOUT = `
CREATE TABLE items (
  pk TEXT NOT NULL, sk TEXT NOT NULL, gsi1pk TEXT, gsi1sk TEXT, gsi2pk TEXT, gsi2sk TEXT, ttl NUMERIC,
  data TEXT NOT NULL, PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk) WHERE gsi1pk IS NOT NULL;
CREATE INDEX items_gsi2 ON items (gsi2pk, gsi2sk, pk, sk) WHERE gsi2pk IS NOT NULL;
CREATE INDEX items_ttl ON items (ttl) WHERE ttl IS NOT NULL;
CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL);
`;

describe('sqlite schema', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('moves a database of the first layout to the rowid layout, keeping every item and index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-schema-'));
    dirs.push(dir);
    const path = join(dir, 'vigil.db');
    const old = new Database(path);
    old.exec(FIRST_LAYOUT);
    const insert = old.prepare(
      'INSERT INTO items (pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, ttl, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const sk of ['a', 'b']) {
      const item = { pk: 'p', sk, entity: 'thing', gsi1pk: 'g', gsi1sk: sk, ttl: 100 };
      insert.run('p', sk, 'g', sk, null, null, 100, JSON.stringify(item));
    }
    old.close();

    const table = createSqliteTable({ db: openSqliteDatabase(path) });
    const layout = table.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'items'").pluck().get();

    expect(String(layout)).not.toMatch(/WITHOUT ROWID/i);
    expect(await table.get({ pk: 'p', sk: 'a' })).toMatchObject({ entity: 'thing', gsi1sk: 'a' });
    expect((await table.query({ index: 'gsi1', pk: 'g' })).items.map((item) => item.sk)).toEqual(['a', 'b']);
    expect(await table.sweepExpired(200, 10)).toBe(2);
    await table.close();
  });

  it('opens a database of the current layout unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-schema-'));
    dirs.push(dir);
    const path = join(dir, 'vigil.db');
    const first = createSqliteTable({ db: openSqliteDatabase(path) });
    await first.transact([{ type: 'put', item: { pk: 'p', sk: 'a', entity: 'thing', schema_version: 1 } }]);
    await first.close();

    const again = createSqliteTable({ db: openSqliteDatabase(path) });

    expect(await again.get({ pk: 'p', sk: 'a' })).toEqual({
      pk: 'p',
      sk: 'a',
      entity: 'thing',
      schema_version: 1,
    });
    await again.close();
  });
});
