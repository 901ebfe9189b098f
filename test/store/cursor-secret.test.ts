import { describe, expect, it } from 'vitest';
import { createCursorSeal } from '../../lib/store/cursor-seal.ts';
import { loadCursorSecret } from '../../lib/store/cursor-secret.ts';
import { tableEngines } from '../support/table-engines.ts';

/** The secret item's key, as docs/data-model.md shows it. */
const CURSOR_SECRET_KEY = { pk: 'SECRET#CURSOR', sk: '#SECRET' };

const engines = tableEngines();

describe.each(engines)('cursor secret ($engine)', ({ make }) => {
  it('creates one secret on first use and every later load, however concurrent, reads the same', async () => {
    const table = make();
    await table.transact([{ type: 'delete', key: CURSOR_SECRET_KEY }]);
    const loads = await Promise.all(Array.from({ length: 5 }, () => loadCursorSecret(table)));
    expect(loads[0]).toHaveLength(32);
    for (const secret of loads) expect(secret.equals(loads[0] as Buffer)).toBe(true);
    expect((await loadCursorSecret(table)).equals(loads[0] as Buffer)).toBe(true);
    expect(await table.get(CURSOR_SECRET_KEY)).toMatchObject({ entity: 'cursor_secret', schema_version: 1 });
  });
});

describe('cursor seal', () => {
  const position = { pk: 'CHECK#chk_1', sk: 'RES#2026-01-01T00:00:00.000Z#res_1' };

  it('opens what it sealed for the same list only', async () => {
    const seal = createCursorSeal(async () => Buffer.alloc(32, 7));
    const cursor = await seal.seal(position, 'list-a');
    expect(await seal.open(cursor, 'list-a')).toEqual(position);
    expect(await seal.open(cursor, 'list-b')).toBeUndefined();
  });

  it("refuses another deployment's cursor", async () => {
    const ours = createCursorSeal(async () => Buffer.alloc(32, 7));
    const theirs = createCursorSeal(async () => Buffer.alloc(32, 8));
    expect(await ours.open(await theirs.seal(position, 'list-a'), 'list-a')).toBeUndefined();
  });

  it('refuses short, empty and garbage cursors', async () => {
    const seal = createCursorSeal(async () => Buffer.alloc(32, 7));
    for (const cursor of ['', 'AQ', 'not-a-cursor', Buffer.alloc(64, 1).toString('base64url')]) {
      expect(await seal.open(cursor, 'list-a')).toBeUndefined();
    }
  });

  it('loads the secret once, and again after a failed load', async () => {
    let calls = 0;
    const seal = createCursorSeal(async () => {
      calls += 1;
      if (calls === 1) throw new Error('table unavailable');
      return Buffer.alloc(32, 7);
    });
    await expect(seal.seal(position, 'l')).rejects.toThrow('table unavailable');
    await seal.open(await seal.seal(position, 'l'), 'l');
    expect(calls).toBe(2);
  });
});
