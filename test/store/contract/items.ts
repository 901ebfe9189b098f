import { describe, expect, it } from 'vitest';
import { InvalidWriteError, ItemTooLargeError } from '../../../lib/store/table.ts';
import { type ContractContext, item } from './context.ts';

/** get, put, delete, batchGet and the attribute types an item may hold. */
export function describeItemContract(ctx: ContractContext): void {
  describe('items', () => {
    it('round-trips every JSON type through put and get', async () => {
      const stored = item(ctx.pk(), 'all-types', {
        text: 'héllo 😀 \u0000 end',
        empty: '',
        integer: 42,
        negative: -7,
        fraction: 3.25,
        large: 9_007_199_254_740_991,
        yes: true,
        no: false,
        nothing: null,
        list: [1, 'two', false, null, { three: 3 }, [4]],
        emptyList: [],
        map: { nested: { deeper: ['x'] }, n: 0 },
        emptyMap: {},
      });
      await ctx.table.transact([{ type: 'put', item: stored }]);
      expect(await ctx.table.get({ pk: stored.pk, sk: stored.sk })).toEqual(stored);
      expect(await ctx.table.get({ pk: stored.pk, sk: stored.sk }, { consistent: true })).toEqual(stored);
    });

    it('refuses an item over 400 KB with ItemTooLargeError, by put and by update, and stores one of 300 KB', async () => {
      const pk = ctx.pk();
      const big = item(pk, 'big', { text: 'x'.repeat(410 * 1024) });
      await expect(ctx.table.transact([{ type: 'put', item: big }])).rejects.toBeInstanceOf(
        ItemTooLargeError,
      );
      expect(await ctx.table.get(big)).toBeUndefined();
      const fits = item(pk, 'fits', { text: 'x'.repeat(300 * 1024) });
      await ctx.table.transact([{ type: 'put', item: fits }]);
      expect(await ctx.table.get(fits)).toEqual(fits);
      const grow = {
        type: 'update' as const,
        key: { pk, sk: 'fits' },
        set: { more: 'y'.repeat(150 * 1024) },
      };
      await expect(ctx.table.update(grow)).rejects.toBeInstanceOf(ItemTooLargeError);
      await expect(ctx.table.transact([grow])).rejects.toBeInstanceOf(ItemTooLargeError);
      expect(await ctx.table.get(fits)).toEqual(fits);
    });

    it('returns undefined for an absent item', async () => {
      expect(await ctx.table.get({ pk: ctx.pk(), sk: 'missing' })).toBeUndefined();
    });

    it('stores the ttl attribute and returns it', async () => {
      const stored = item(ctx.pk(), 'expiring', { ttl: 1_900_000_000 });
      await ctx.table.transact([{ type: 'put', item: stored }]);
      expect(await ctx.table.get(stored)).toEqual(stored);
    });

    it('replaces the whole item on put', async () => {
      const pk = ctx.pk();
      await ctx.table.transact([{ type: 'put', item: item(pk, 'a', { old: 1, kept: 'no' }) }]);
      await ctx.table.transact([{ type: 'put', item: item(pk, 'a', { fresh: 2 }) }]);
      expect(await ctx.table.get({ pk, sk: 'a' })).toEqual(item(pk, 'a', { fresh: 2 }));
    });

    it('deletes an item, and deleting an absent item succeeds', async () => {
      const pk = ctx.pk();
      await ctx.table.transact([{ type: 'put', item: item(pk, 'a') }]);
      await ctx.table.transact([{ type: 'delete', key: { pk, sk: 'a' } }]);
      await ctx.table.transact([{ type: 'delete', key: { pk, sk: 'never-there' } }]);
      expect(await ctx.table.get({ pk, sk: 'a' })).toBeUndefined();
    });

    it('accepts a whole item where a key is expected', async () => {
      const stored = item(ctx.pk(), 'a', { extra: true });
      await ctx.table.transact([{ type: 'put', item: stored }]);
      expect(await ctx.table.get(stored)).toEqual(stored);
      await ctx.table.transact([{ type: 'delete', key: stored }]);
      expect(await ctx.table.get(stored)).toBeUndefined();
    });

    it('batchGet returns the present items, skips missing ones and ignores duplicate keys', async () => {
      const pk = ctx.pk();
      const stored = ['a', 'b', 'c'].map((sk) => item(pk, sk, { n: sk }));
      await ctx.table.transact(stored.map((it) => ({ type: 'put' as const, item: it })));
      const keys = [
        { pk, sk: 'a' },
        { pk, sk: 'missing' },
        { pk, sk: 'c' },
        { pk, sk: 'a' },
      ];
      const got = await ctx.table.batchGet(keys);
      expect(got.sort((x, y) => x.sk.localeCompare(y.sk))).toEqual([stored[0], stored[2]]);
      expect(await ctx.table.batchGet([])).toEqual([]);
    });

    it('batchGet reads 100 keys at once and rejects 101', async () => {
      const pk = ctx.pk();
      const stored = Array.from({ length: 100 }, (_, i) => item(pk, `k${String(i).padStart(3, '0')}`));
      await ctx.table.transact(stored.map((it) => ({ type: 'put' as const, item: it })));
      const got = await ctx.table.batchGet(stored.map(({ pk: p, sk }) => ({ pk: p, sk })));
      expect(got.map((it) => it.sk).sort()).toEqual(stored.map((it) => it.sk));
      const tooMany = [...stored, item(pk, 'k100')].map(({ pk: p, sk }) => ({ pk: p, sk }));
      await expect(ctx.table.batchGet(tooMany)).rejects.toBeInstanceOf(InvalidWriteError);
    });

    it('rejects empty key values and index keys', async () => {
      const pk = ctx.pk();
      await expect(ctx.table.transact([{ type: 'put', item: item(pk, '') }])).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      await expect(ctx.table.transact([{ type: 'put', item: item('', 'a') }])).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      await expect(
        ctx.table.transact([{ type: 'put', item: item(pk, 'a', { gsi1pk: '', gsi1sk: 'x' }) }]),
      ).rejects.toBeInstanceOf(InvalidWriteError);
      expect(await ctx.table.get({ pk, sk: 'a' })).toBeUndefined();
    });
  });
}
