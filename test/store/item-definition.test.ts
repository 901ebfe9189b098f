import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineItem, ITEM_DEFINITIONS } from '../../lib/store/item-definition.ts';
import { itemType } from '../../lib/store/item-type.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/store/sqlite-table.ts';

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
    expect(widget.parseAll([stored!, { pk: 'x', sk: 'y', entity: 'other' }])).toHaveLength(1);
    await table.close();
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
  });
});
