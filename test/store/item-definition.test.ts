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
    if (!stored) throw new Error('the widget is stored');
    expect(widget.parseAll([stored, { pk: 'x', sk: 'y', entity: 'other' }])).toHaveLength(1);
    await table.close();
  });

  it('lists the type with the key pattern of its placeholders', () => {
    expect(ITEM_DEFINITIONS).toContainEqual({
      entity: 'test_widget',
      version: 2,
      key: { pk: 'T#<tnt>', sk: 'W#<wid>' },
      indexes: ['gsi2'],
    });
  });

  it('puts a record that does not carry its key input at the key given beside it', () => {
    const note = defineItem({
      type: itemType('test_note'),
      schema: z.object({ id: z.string(), text: z.string() }),
      key: (k: { tenant_id: string; id: string }) => ({ pk: `T#${k.tenant_id}`, sk: `N#${k.id}` }),
      keyOf: null,
      docKey: { tenant_id: '<tnt>', id: '<nid>' },
    });
    const record = { id: 'n1', text: 'hi' };
    expect(note.putAt({ tenant_id: 't1', id: 'n1' }, record, { kind: 'itemNotExists' })).toEqual({
      type: 'put',
      item: { ...record, pk: 'T#t1', sk: 'N#n1', entity: 'test_note', schema_version: 1 },
      condition: { kind: 'itemNotExists' },
    });
    expect(() => note.put(record)).toThrow(TypeError);
  });
});
