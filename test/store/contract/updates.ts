import { describe, expect, it } from 'vitest';
import { InvalidWriteError, type UpdateOp } from '../../../lib/store/table.ts';
import { type ContractContext, conditionFailure, item } from './context.ts';

/** update: upsert, set / remove / add, the returned item, and refused shapes. */
export function describeUpdateContract(ctx: ContractContext): void {
  describe('update', () => {
    it('creates an absent item from its key, set and add (upsert) and returns it', async () => {
      const key = { pk: ctx.pk(), sk: 'counter' };
      const created = await ctx.table.update({
        type: 'update',
        key,
        set: { entity: 'counter', label: 'x', skipped: undefined },
        add: { count: 2 },
      });
      expect(created).toEqual({ ...key, entity: 'counter', label: 'x', count: 2 });
      expect(await ctx.table.get(key)).toEqual(created);
    });

    it('sets, removes and adds on an existing item, keeping other attributes', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { keep: 'me', drop: 1, n: 10 }) }]);
      const after = await ctx.table.update({
        type: 'update',
        key,
        set: { name: 'new', nested: { list: [1, 2] } },
        remove: ['drop', 'never-there'],
        add: { n: -3 },
      });
      expect(after).toEqual(
        item(key.pk, key.sk, { keep: 'me', n: 7, name: 'new', nested: { list: [1, 2] } }),
      );
      expect(await ctx.table.get(key)).toEqual(after);
    });

    it('adds to a missing attribute starting from 0', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk) }]);
      const after = await ctx.table.update({ type: 'update', key, add: { hits: 1.5, misses: -1 } });
      expect(after).toMatchObject({ hits: 1.5, misses: -1 });
    });

    it('updates inside a transaction like the single call', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([
        { type: 'update', key, set: { entity: 'thing', schema_version: 1 }, add: { n: 1 } },
      ]);
      await ctx.table.transact([{ type: 'update', key, add: { n: 1 } }]);
      expect(await ctx.table.get(key)).toEqual(item(key.pk, key.sk, { n: 2 }));
    });

    it('leaves the item unchanged when its condition fails', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { n: 1 }) }]);
      const error = await conditionFailure(
        ctx.table.update({
          type: 'update',
          key,
          add: { n: 1 },
          condition: { kind: 'compare', attr: 'n', op: '>', value: 1 },
        }),
      );
      expect(error.failed).toEqual([0]);
      expect(await ctx.table.get(key)).toEqual(item(key.pk, key.sk, { n: 1 }));
    });

    it('does not create an item when an upsert condition fails', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await conditionFailure(
        ctx.table.update({
          type: 'update',
          key,
          set: { entity: 'thing' },
          condition: { kind: 'itemExists' },
        }),
      );
      expect(await ctx.table.get(key)).toBeUndefined();
    });

    it('refuses to add to an attribute that is not a number', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { s: 'text' }) }]);
      await expect(ctx.table.update({ type: 'update', key, add: { s: 1 } })).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      expect(await ctx.table.get(key)).toEqual(item(key.pk, key.sk, { s: 'text' }));
    });

    it("sets and removes a map's entries, leaving its other entries as they are", async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([
        { type: 'put', item: item(key.pk, key.sk, { states: { a: 'up', b: 'down', c: 'up' }, n: 1 }) },
      ]);
      const after = await ctx.table.update({
        type: 'update',
        key,
        entries: {
          states: { set: { b: 'up', 'chk_01.x': 'unknown', skipped: undefined }, remove: ['c', 'z'] },
        },
        add: { n: 1 },
        condition: { kind: 'attrExists', attr: 'states' },
      });
      expect(after).toEqual(
        item(key.pk, key.sk, { states: { a: 'up', b: 'up', 'chk_01.x': 'unknown' }, n: 2 }),
      );
      // In a transaction too, beside another writer's entry: neither overwrites the other.
      await ctx.table.transact([{ type: 'update', key, entries: { states: { set: { d: 'down' } } } }]);
      expect((await ctx.table.get(key))?.states).toEqual({
        a: 'up',
        b: 'up',
        'chk_01.x': 'unknown',
        d: 'down',
      });
    });

    it('refuses an entry of an absent map, and its condition on the map says so first', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { n: 1 }) }]);
      const entry: UpdateOp = { type: 'update', key, entries: { states: { set: { a: 'up' } } } };
      await expect(ctx.table.update(entry)).rejects.toBeInstanceOf(InvalidWriteError);
      await expect(ctx.table.transact([entry])).rejects.toBeInstanceOf(InvalidWriteError);
      const held: UpdateOp = { ...entry, condition: { kind: 'attrExists', attr: 'states' } };
      expect((await conditionFailure(ctx.table.transact([held]))).failed).toEqual([0]);
      expect(await ctx.table.get(key)).toEqual(item(key.pk, key.sk, { n: 1 }));
    });

    it('refuses updates of key attributes, empty updates and overlapping attributes', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      const refused: UpdateOp[] = [
        { type: 'update', key, set: { pk: 'other' } },
        { type: 'update', key, remove: ['sk'] },
        { type: 'update', key },
        { type: 'update', key, set: { only: undefined } },
        { type: 'update', key, set: { a: 1 }, remove: ['a'] },
        { type: 'update', key, set: { a: 1 }, add: { a: 1 } },
        { type: 'update', key, entries: { m: {} } },
        { type: 'update', key, entries: { m: { set: { k: 1 } } }, set: { m: {} } },
        { type: 'update', key, entries: { m: { set: { k: 1 }, remove: ['k'] } } },
        { type: 'update', key, entries: { m: { set: { '': 1 } } } },
      ];
      for (const op of refused) {
        await expect(ctx.table.update(op)).rejects.toBeInstanceOf(InvalidWriteError);
        await expect(ctx.table.transact([op])).rejects.toBeInstanceOf(InvalidWriteError);
      }
      expect(await ctx.table.get(key)).toBeUndefined();
    });
  });
}
