import { describe, expect, it } from 'vitest';
import {
  type Condition,
  ConditionFailedError,
  InvalidWriteError,
  MAX_TRANSACTION_OPS,
  type WriteOp,
} from '../../../lib/store/table.ts';
import { type ContractContext, conditionFailure, item } from './context.ts';

const CONCURRENT = 25;
const LIMIT = 10;
const belowLimit: Condition = {
  kind: 'or',
  conditions: [
    { kind: 'attrNotExists', attr: 'count' },
    { kind: 'compare', attr: 'count', op: '<', value: LIMIT },
  ],
};

/** Counts outcomes of concurrent attempts: admitted, or refused by a condition (anything else fails). */
function tally(results: PromiseSettledResult<unknown>[]): { admitted: number; refused: number } {
  for (const result of results) {
    if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ConditionFailedError);
  }
  const admitted = results.filter((r) => r.status === 'fulfilled').length;
  return { admitted, refused: results.length - admitted };
}

/** Transactions: all or nothing, failed indexes, shape limits, and races on a counter. */
export function describeTransactionContract(ctx: ContractContext): void {
  describe('transactions', () => {
    it('writes every op or none: a failing op 3 leaves ops 1 and 2 unwritten', async () => {
      const pk = ctx.pk();
      const ops: WriteOp[] = [
        { type: 'put', item: item(pk, 'one') },
        { type: 'update', key: { pk, sk: 'two' }, set: { entity: 'thing' } },
        { type: 'put', item: item(pk, 'three'), condition: { kind: 'itemExists' } },
        { type: 'put', item: item(pk, 'four') },
      ];
      const error = await conditionFailure(ctx.table.transact(ops));
      expect(error.failed).toEqual([2]);
      const left = await ctx.table.batchGet(['one', 'two', 'three', 'four'].map((sk) => ({ pk, sk })));
      expect(left).toEqual([]);
    });

    it('reports every failed operation index', async () => {
      const pk = ctx.pk();
      await ctx.table.transact([{ type: 'put', item: item(pk, 'existing') }]);
      const error = await conditionFailure(
        ctx.table.transact([
          { type: 'put', item: item(pk, 'fresh') },
          { type: 'put', item: item(pk, 'existing'), condition: { kind: 'itemNotExists' } },
          { type: 'delete', key: { pk, sk: 'other' } },
          { type: 'conditionCheck', key: { pk, sk: 'absent' }, condition: { kind: 'itemExists' } },
        ]),
      );
      expect(error.failed).toEqual([1, 3]);
      expect(await ctx.table.get({ pk, sk: 'fresh' })).toBeUndefined();
    });

    it('commits put, update, delete and conditionCheck together', async () => {
      const pk = ctx.pk();
      await ctx.table.transact([
        { type: 'put', item: item(pk, 'doomed') },
        { type: 'put', item: item(pk, 'guard', { open: true }) },
        { type: 'put', item: item(pk, 'counter', { n: 1 }) },
      ]);
      await ctx.table.transact([
        { type: 'put', item: item(pk, 'new'), condition: { kind: 'itemNotExists' } },
        { type: 'update', key: { pk, sk: 'counter' }, add: { n: 1 }, condition: { kind: 'itemExists' } },
        { type: 'delete', key: { pk, sk: 'doomed' }, condition: { kind: 'itemExists' } },
        {
          type: 'conditionCheck',
          key: { pk, sk: 'guard' },
          condition: { kind: 'compare', attr: 'open', op: '=', value: true },
        },
      ]);
      const page = await ctx.table.query({ pk });
      expect(page.items.map((it) => [it.sk, it.n])).toEqual([
        ['counter', 2],
        ['guard', undefined],
        ['new', undefined],
      ]);
    });

    it('treats an empty transaction as a no-op', async () => {
      await expect(ctx.table.transact([])).resolves.toBeUndefined();
    });

    it('accepts 100 operations and rejects 101 without writing any', async () => {
      const pk = ctx.pk();
      const puts = (n: number): WriteOp[] =>
        Array.from({ length: n }, (_, i) => ({
          type: 'put',
          item: item(pk, `i${String(i).padStart(3, '0')}`),
        }));
      await expect(ctx.table.transact(puts(MAX_TRANSACTION_OPS + 1).reverse())).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      expect(await ctx.table.get({ pk, sk: 'i100' })).toBeUndefined();
      await ctx.table.transact(puts(MAX_TRANSACTION_OPS));
      expect((await ctx.table.query({ pk })).items).toHaveLength(MAX_TRANSACTION_OPS);
    });

    it('rejects the same item twice in one transaction without writing', async () => {
      const pk = ctx.pk();
      const twice = ctx.table.transact([
        { type: 'put', item: item(pk, 'other') },
        { type: 'put', item: item(pk, 'a') },
        { type: 'update', key: { pk, sk: 'a' }, set: { x: 1 } },
      ]);
      await expect(twice).rejects.toBeInstanceOf(InvalidWriteError);
      expect(await ctx.table.get({ pk, sk: 'other' })).toBeUndefined();
    });

    it(`admits exactly ${LIMIT} of ${CONCURRENT} concurrent creates against a limit counter`, async () => {
      const pk = ctx.pk();
      const counter = { pk, sk: 'counter' };
      const attempts = Array.from({ length: CONCURRENT }, (_, i) =>
        ctx.table.transact([
          {
            type: 'update',
            key: counter,
            set: { entity: 'counter' },
            add: { count: 1 },
            condition: belowLimit,
          },
          { type: 'put', item: item(pk, `member#${i}`), condition: { kind: 'itemNotExists' } },
        ]),
      );
      expect(tally(await Promise.allSettled(attempts))).toEqual({
        admitted: LIMIT,
        refused: CONCURRENT - LIMIT,
      });
      expect(await ctx.table.get(counter, { consistent: true })).toMatchObject({ count: LIMIT });
      const members = await ctx.table.query({
        pk,
        sk: { op: 'beginsWith', prefix: 'member#' },
        consistent: true,
      });
      expect(members.items).toHaveLength(LIMIT);
    });

    it(`admits exactly ${LIMIT} of ${CONCURRENT} concurrent single updates against a limit`, async () => {
      const counter = { pk: ctx.pk(), sk: 'counter' };
      const attempts = Array.from({ length: CONCURRENT }, () =>
        ctx.table.update({
          type: 'update',
          key: counter,
          set: { entity: 'counter' },
          add: { count: 1 },
          condition: belowLimit,
        }),
      );
      const results = await Promise.allSettled(attempts);
      expect(tally(results)).toEqual({ admitted: LIMIT, refused: CONCURRENT - LIMIT });
      const counts = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.count] : []));
      expect(counts.sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: LIMIT }, (_, i) => i + 1),
      );
      expect(await ctx.table.get(counter, { consistent: true })).toMatchObject({ count: LIMIT });
    });
  });
}
