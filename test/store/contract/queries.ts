import { describe, expect, it } from 'vitest';
import {
  type IndexName,
  InvalidWriteError,
  type Item,
  type NewItem,
  type QueryInput,
  type SortKeyCondition,
  type Table,
} from '../../../lib/store/table.ts';
import { type ContractContext, item } from './context.ts';

const SKS = ['a', 'b', 'c', 'd', 'e'];
// Sort keys where LIKE wildcards, multi-byte and astral characters would trip a naive prefix match.
const SPECIAL = [
  '50%',
  '50%off',
  '50_x',
  '50ab',
  '5000',
  'a\\b',
  'é1',
  'é2',
  'f',
  '😀a',
  '😀b',
  '😁',
  '\u{10FFFF}a',
];

async function seed(table: Table, items: NewItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += 100) {
    await table.transact(items.slice(i, i + 100).map((it) => ({ type: 'put' as const, item: it })));
  }
}

/** Every page of a query, following cursors (bounded). */
async function allPages(table: Table, input: QueryInput, maxPages = 50): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query({ ...input, ...(cursor ? { cursor } : {}) });
    pages.push(page.items);
    cursor = page.cursor;
  } while (cursor && pages.length < maxPages);
  expect(cursor).toBeUndefined();
  return pages;
}

async function sks(table: Table, input: QueryInput): Promise<string[]> {
  return (await table.query(input)).items.map((it) => it.sk);
}

/** Queries on the table and both GSIs: sort-key conditions, order, limit and cursors. */
export function describeQueryContract(ctx: ContractContext): void {
  describe('query', () => {
    it('returns a partition in sort-key order, ascending or descending', async () => {
      const pk = ctx.pk();
      await seed(
        ctx.table,
        [...SKS].reverse().map((sk) => item(pk, sk)),
      );
      await seed(ctx.table, [item(ctx.pk('other'), 'a')]);
      expect(await sks(ctx.table, { pk })).toEqual(SKS);
      expect(await sks(ctx.table, { pk, direction: 'desc' })).toEqual([...SKS].reverse());
      expect(await sks(ctx.table, { pk, consistent: true })).toEqual(SKS);
    });

    it('returns no items and no cursor for an empty partition', async () => {
      expect(await ctx.table.query({ pk: ctx.pk('empty') })).toEqual({ items: [] });
    });

    const cases: [SortKeyCondition, string[]][] = [
      [{ op: '=', value: 'c' }, ['c']],
      [{ op: '<', value: 'c' }, ['a', 'b']],
      [{ op: '<=', value: 'c' }, ['a', 'b', 'c']],
      [{ op: '>', value: 'c' }, ['d', 'e']],
      [{ op: '>=', value: 'c' }, ['c', 'd', 'e']],
      [{ op: 'between', low: 'b', high: 'd' }, ['b', 'c', 'd']],
      [{ op: 'between', low: 'bb', high: 'bz' }, []],
      [{ op: 'beginsWith', prefix: 'c' }, ['c']],
    ];
    it.each(cases)('applies the sort-key condition %j', async (sk, expected) => {
      const pk = ctx.pk();
      await seed(
        ctx.table,
        SKS.map((s) => item(pk, s)),
      );
      expect(await sks(ctx.table, { pk, sk })).toEqual(expected);
      expect(await sks(ctx.table, { pk, sk, direction: 'desc' })).toEqual([...expected].reverse());
    });

    const prefixes: [string, string[]][] = [
      ['50%', ['50%', '50%off']],
      ['50_', ['50_x']],
      ['50', ['50%', '50%off', '5000', '50_x', '50ab']],
      ['a\\', ['a\\b']],
      ['é', ['é1', 'é2']],
      ['😀', ['😀a', '😀b']],
      ['\u{10FFFF}', ['\u{10FFFF}a']],
    ];
    it.each(prefixes)(
      'matches beginsWith %j exactly, special characters included',
      async (prefix, expected) => {
        const pk = ctx.pk();
        await seed(
          ctx.table,
          SPECIAL.map((s) => item(pk, s)),
        );
        expect(await sks(ctx.table, { pk, sk: { op: 'beginsWith', prefix } })).toEqual(expected);
      },
    );

    it('pages through every item exactly once with limit and cursor, in both directions', async () => {
      const pk = ctx.pk();
      const all = Array.from({ length: 23 }, (_, i) => `item#${String(i).padStart(2, '0')}`);
      await seed(
        ctx.table,
        all.map((s) => item(pk, s)),
      );
      const asc = await allPages(ctx.table, { pk, limit: 5 });
      expect(asc.slice(0, 4).map((p) => p.length)).toEqual([5, 5, 5, 5]);
      expect(asc.flat().map((it) => it.sk)).toEqual(all);
      const desc = await allPages(ctx.table, { pk, limit: 7, direction: 'desc' });
      expect(desc.flat().map((it) => it.sk)).toEqual([...all].reverse());
      const ranged = await allPages(ctx.table, {
        pk,
        limit: 2,
        sk: { op: 'between', low: 'item#05', high: 'item#09' },
      });
      expect(ranged.flat().map((it) => it.sk)).toEqual(all.slice(5, 10));
    });

    it('enforces a limit from 1 to 1000', async () => {
      const pk = ctx.pk();
      await seed(
        ctx.table,
        SKS.map((s) => item(pk, s)),
      );
      expect(await sks(ctx.table, { pk, limit: 1000 })).toEqual(SKS);
      for (const limit of [0, 1001, 2.5]) {
        await expect(ctx.table.query({ pk, limit })).rejects.toBeInstanceOf(InvalidWriteError);
      }
    });

    it('rejects a malformed cursor and a cursor from another partition', async () => {
      const pk = ctx.pk();
      await seed(
        ctx.table,
        SKS.map((s) => item(pk, s)),
      );
      const { cursor } = await ctx.table.query({ pk, limit: 2 });
      expect(cursor).toBeDefined();
      await expect(ctx.table.query({ pk: ctx.pk('other'), cursor })).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      await expect(ctx.table.query({ pk, cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidWriteError);
      await expect(ctx.table.query({ pk, index: 'gsi1', cursor })).rejects.toBeInstanceOf(InvalidWriteError);
    });

    it.each<IndexName>(['gsi1', 'gsi2'])(
      'queries %s, skipping items without both of its keys',
      async (index) => {
        const [ipk, isk] = [`${index}pk`, `${index}sk`];
        const gpk = ctx.pk('index');
        await seed(ctx.table, [
          item(ctx.pk('x'), '1', { [ipk]: gpk, [isk]: 'b' }),
          item(ctx.pk('y'), '1', { [ipk]: gpk, [isk]: 'a' }),
          item(ctx.pk('y'), '2', { [ipk]: gpk, [isk]: 'c#1' }),
          item(ctx.pk('y'), '3', { [ipk]: gpk }),
          item(ctx.pk('y'), '4'),
        ]);
        const keys = async (input: Omit<QueryInput, 'index' | 'pk'>) =>
          (await ctx.table.query({ index, pk: gpk, ...input })).items.map((it) => it[isk]);
        expect(await keys({})).toEqual(['a', 'b', 'c#1']);
        expect(await keys({ direction: 'desc' })).toEqual(['c#1', 'b', 'a']);
        expect(await keys({ sk: { op: 'beginsWith', prefix: 'c#' } })).toEqual(['c#1']);
        expect(await keys({ sk: { op: '>', value: 'a' } })).toEqual(['b', 'c#1']);
        expect(await keys({ sk: { op: 'between', low: 'a', high: 'b' } })).toEqual(['a', 'b']);
        expect((await ctx.table.query({ pk: gpk })).items).toEqual([]);
      },
    );

    it('pages through a GSI whose items share sort keys exactly once', async () => {
      const gpk = ctx.pk('index');
      const items = Array.from({ length: 17 }, (_, i) =>
        item(ctx.pk(`p${i % 4}`), `s${i}`, { gsi1pk: gpk, gsi1sk: `shared#${i % 3}` }),
      );
      await seed(ctx.table, items);
      for (const direction of ['asc', 'desc'] as const) {
        const pages = await allPages(ctx.table, { index: 'gsi1', pk: gpk, limit: 4, direction });
        const seen = pages.flat();
        expect(seen.map((it) => `${it.pk}/${it.sk}`).sort()).toEqual(
          items.map((it) => `${it.pk}/${it.sk}`).sort(),
        );
        const order = seen.map((it) => String(it.gsi1sk));
        const sorted = [...order].sort();
        expect(order).toEqual(direction === 'asc' ? sorted : sorted.reverse());
      }
    });

    it('moves an item in and out of a GSI as its index keys change', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      const gpk = ctx.pk('index');
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk) }]);
      await ctx.table.update({ type: 'update', key, set: { gsi2pk: gpk, gsi2sk: 'first' } });
      expect((await ctx.table.query({ index: 'gsi2', pk: gpk })).items.map((it) => it.gsi2sk)).toEqual([
        'first',
      ]);
      await ctx.table.update({ type: 'update', key, set: { gsi2sk: 'second' } });
      expect((await ctx.table.query({ index: 'gsi2', pk: gpk })).items.map((it) => it.gsi2sk)).toEqual([
        'second',
      ]);
      await ctx.table.update({ type: 'update', key, remove: ['gsi2pk'] });
      expect((await ctx.table.query({ index: 'gsi2', pk: gpk })).items).toEqual([]);
    });
  });
}
