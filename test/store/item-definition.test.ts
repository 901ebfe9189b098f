import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';
import { defineItem, ITEM_DEFINITIONS } from '../../lib/store/item-definition.ts';
import { itemType } from '../../lib/store/item-type.ts';

const widget = defineItem({
  type: itemType('test_widget', 2),
  schema: z.object({
    tenant_id: z.string(),
    id: z.string(),
    due_at: z.string().nullable(),
    count: z.number().int(),
    expires_at: z.number().int().optional(),
  }),
  key: (k: { tenant_id: string; id: string }) => ({ pk: `T#${k.tenant_id}`, sk: `W#${k.id}` }),
  gsi2: (r) => (r.due_at ? { pk: 'DUE', sk: `${r.due_at}#${r.id}` } : undefined),
  ttl: (r) => r.expires_at,
  docKey: { tenant_id: '<tnt>', id: '<wid>' },
});

/** An item whose attributes do not hold its key (a numbered slot): put at a key given apart. */
const slot = defineItem({
  type: itemType('test_slot'),
  schema: z.object({ holder: z.string() }),
  key: (k: { owner: string; n: number }) => ({ pk: `S#${k.owner}`, sk: `N#${String(k.n).padStart(4, '0')}` }),
  keyOf: null,
  docKey: { owner: '<own>', n: '<n, 4 digits>' },
});

describe('defineItem', () => {
  it('builds the stored item with its key, stamp, index keys and ttl, and parses it back', async () => {
    const record = { tenant_id: 't1', id: 'w1', due_at: '2026-01-01', count: 1, expires_at: 99 };
    expect(widget.item(record)).toEqual({
      ...record,
      pk: 'T#t1',
      sk: 'W#w1',
      entity: 'test_widget',
      schema_version: 2,
      gsi2pk: 'DUE',
      gsi2sk: '2026-01-01#w1',
      ttl: 99,
    });
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    await table.transact([widget.put(record, { kind: 'itemNotExists' })]);
    expect(await widget.get(table, record)).toEqual(record);
    // Reindexed to no due time: leaves the due index and drops the ttl.
    await table.transact([
      widget.update(record, {
        set: { due_at: null },
        add: { count: 2 },
        reindex: { ...record, due_at: null, expires_at: undefined },
        condition: { kind: 'compare', attr: 'count', op: '=', value: 1 },
      }),
    ]);
    const stored = await table.get(widget.key(record), { consistent: true });
    expect(stored).toMatchObject({ count: 3, due_at: null });
    expect(stored).not.toHaveProperty('gsi2pk');
    expect(stored).not.toHaveProperty('ttl');
    if (!stored) throw new Error('the widget is stored');
    expect(widget.parseAll([stored, { pk: 'x', sk: 'y', entity: 'other' }])).toHaveLength(1);
    await table.close();
  });

  it('puts an item that does not hold its key at the key given, and refuses a put without one', () => {
    expect(slot.putAt({ owner: 'o1', n: 7 }, { holder: 'h1' }, { kind: 'itemNotExists' })).toEqual({
      type: 'put',
      item: { pk: 'S#o1', sk: 'N#0007', entity: 'test_slot', schema_version: 1, holder: 'h1' },
      condition: { kind: 'itemNotExists' },
    });
    expect(() => slot.put({ holder: 'h1' })).toThrow(TypeError);
  });

  it('places an item by its context when its key, index keys or ttl depend on more than its attributes', async () => {
    const line = defineItem({
      type: itemType('test_line'),
      schema: z.object({ seq: z.number().int(), at: z.number().int() }),
      key: (k: { doc_id: string; seq: number }) => ({ pk: `DOC#${k.doc_id}`, sk: `L#${k.seq}` }),
      keyOf: (r, c: { doc_id: string; shards: number; keepDays: number }) => ({
        doc_id: c.doc_id,
        seq: r.seq,
      }),
      gsi1: (r, c) => ({ pk: `SHARD#${r.seq % c.shards}`, sk: `${r.at}` }),
      ttl: (r, c) => r.at + c.keepDays * 86_400,
      docKey: { doc_id: '<doc>', seq: 1 },
    });
    const context = { doc_id: 'd1', shards: 4, keepDays: 1 };
    expect(line.item({ seq: 5, at: 100 }, context)).toEqual({
      seq: 5,
      at: 100,
      pk: 'DOC#d1',
      sk: 'L#5',
      entity: 'test_line',
      schema_version: 1,
      gsi1pk: 'SHARD#1',
      gsi1sk: '100',
      ttl: 86_500,
    });
    expect(
      line.update({ doc_id: 'd1', seq: 5 }, { set: { at: 200 }, reindex: { seq: 5, at: 200 }, context }),
    ).toEqual({
      type: 'update',
      key: { pk: 'DOC#d1', sk: 'L#5' },
      set: { at: 200, gsi1pk: 'SHARD#1', gsi1sk: '200', ttl: 86_600 },
    });
  });

  it('lists the type with the key pattern of its placeholders', () => {
    expect(ITEM_DEFINITIONS).toContainEqual({
      entity: 'test_widget',
      version: 2,
      key: { pk: 'T#<tnt>', sk: 'W#<wid>' },
      indexes: ['gsi2'],
    });
    // A number part's placeholder renders as given.
    expect(ITEM_DEFINITIONS).toContainEqual({
      entity: 'test_slot',
      version: 1,
      key: { pk: 'S#<own>', sk: 'N#<n, 4 digits>' },
      indexes: [],
    });
  });

  it('writes an item whose record does not carry its key under the key given beside it', async () => {
    const claim = defineItem({
      type: itemType('test_claim'),
      schema: z.object({ owner_id: z.string() }),
      key: (k: { tenant_id: string; name: string }) => ({ pk: `T#${k.tenant_id}`, sk: `NAME#${k.name}` }),
      keyOf: null,
      docKey: { tenant_id: '<tnt>', name: '<name>' },
    });
    const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    const at = { tenant_id: 't1', name: 'n1' };
    await table.transact([claim.putAt(at, { owner_id: 'o1' }, { kind: 'itemNotExists' })]);
    expect(await table.get({ pk: 'T#t1', sk: 'NAME#n1' }, { consistent: true })).toEqual({
      pk: 'T#t1',
      sk: 'NAME#n1',
      entity: 'test_claim',
      schema_version: 1,
      owner_id: 'o1',
    });
    expect(await claim.get(table, at)).toEqual({ owner_id: 'o1' });
    // Without its key input, the record cannot be written.
    expect(() => claim.put({ owner_id: 'o1' })).toThrow(TypeError);
    await table.close();
  });
});
