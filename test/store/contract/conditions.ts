import { describe, expect, it } from 'vitest';
import { type Comparator, type Condition, InvalidWriteError } from '../../../lib/store/table.ts';
import { type ContractContext, conditionFailure, holds, item } from './context.ts';

type Case = [attr: string, op: Comparator, value: string | number | boolean, expected: boolean];

// Item under test: { n: 5, s: 'm', b: true, nil: null } — DynamoDB semantics, checked on DynamoDB Local.
const comparisons: Case[] = [
  ['n', '=', 5, true],
  ['n', '<>', 5, false],
  ['n', '<>', 4, true],
  ['n', '<', 6, true],
  ['n', '<', 5, false],
  ['n', '<=', 5, true],
  ['n', '>', 4.5, true],
  ['n', '>=', 6, false],
  ['s', '>', 'a', true],
  ['s', '<', 'a', false],
  ['s', '=', 'm', true],
  ['s', '<=', 'm', true],
  ['b', '=', true, true],
  ['b', '<>', false, true],
  // An absent attribute: every comparison is false except <>.
  ['missing', '=', 1, false],
  ['missing', '<', 1, false],
  ['missing', '>=', 'a', false],
  ['missing', '<>', 1, true],
  // Another type: never equal, never ordered, always <>.
  ['s', '=', 5, false],
  ['s', '<', 5, false],
  ['s', '<>', 5, true],
  ['n', '=', '5', false],
  ['nil', '=', 'x', false],
  ['nil', '<>', 'x', true],
];

/** Typed conditions on put, update, delete and conditionCheck. */
export function describeConditionContract(ctx: ContractContext): void {
  describe('conditions', () => {
    it('puts only if absent with itemNotExists', async () => {
      const first = item(ctx.pk(), 'a', { v: 1 });
      await ctx.table.transact([{ type: 'put', item: first, condition: { kind: 'itemNotExists' } }]);
      const error = await conditionFailure(
        ctx.table.transact([{ type: 'put', item: { ...first, v: 2 }, condition: { kind: 'itemNotExists' } }]),
      );
      expect(error.failed).toEqual([0]);
      expect(await ctx.table.get(first)).toEqual(first);
    });

    it('checks itemExists against present and absent items', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      expect(await holds(ctx.table, key, { kind: 'itemExists' })).toBe(false);
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk) }]);
      expect(await holds(ctx.table, key, { kind: 'itemExists' })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'itemNotExists' })).toBe(false);
    });

    it('writes only at the expected version', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { version: 1 }) }]);
      const atVersion = (v: number): Condition => ({ kind: 'compare', attr: 'version', op: '=', value: v });
      await ctx.table.transact([{ type: 'update', key, add: { version: 1 }, condition: atVersion(1) }]);
      await conditionFailure(
        ctx.table.transact([{ type: 'update', key, set: { x: 1 }, condition: atVersion(1) }]),
      );
      expect(await ctx.table.get(key)).toEqual(item(key.pk, key.sk, { version: 2 }));
    });

    it.each(comparisons)('evaluates %s %s %j as %s', async (attr, op, value, expected) => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([
        { type: 'put', item: item(key.pk, key.sk, { n: 5, s: 'm', b: true, nil: null }) },
      ]);
      expect(await holds(ctx.table, key, { kind: 'compare', attr, op, value })).toBe(expected);
    });

    it('treats every attribute of an absent item as absent', async () => {
      const key = { pk: ctx.pk(), sk: 'absent' };
      expect(await holds(ctx.table, key, { kind: 'compare', attr: 'n', op: '=', value: 5 })).toBe(false);
      expect(await holds(ctx.table, key, { kind: 'compare', attr: 'n', op: '<', value: 5 })).toBe(false);
      expect(await holds(ctx.table, key, { kind: 'compare', attr: 'n', op: '<>', value: 5 })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'attrNotExists', attr: 'n' })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'attrExists', attr: 'pk' })).toBe(false);
    });

    it('orders strings by UTF-8 bytes, not UTF-16 code units', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { s: '\uFF01' }) }]);
      expect(await holds(ctx.table, key, { kind: 'compare', attr: 's', op: '<', value: '\u{1F600}' })).toBe(
        true,
      );
    });

    it('checks attrExists and attrNotExists (a null attribute exists)', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { here: 1, nil: null }) }]);
      expect(await holds(ctx.table, key, { kind: 'attrExists', attr: 'here' })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'attrExists', attr: 'nil' })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'attrExists', attr: 'gone' })).toBe(false);
      expect(await holds(ctx.table, key, { kind: 'attrNotExists', attr: 'gone' })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'attrNotExists', attr: 'here' })).toBe(false);
    });

    it('combines conditions with and / or, nested', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { n: 5 }) }]);
      const yes: Condition = { kind: 'compare', attr: 'n', op: '=', value: 5 };
      const no: Condition = { kind: 'attrExists', attr: 'missing' };
      expect(await holds(ctx.table, key, { kind: 'and', conditions: [yes, yes] })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'and', conditions: [yes, no] })).toBe(false);
      expect(await holds(ctx.table, key, { kind: 'or', conditions: [no, yes] })).toBe(true);
      expect(await holds(ctx.table, key, { kind: 'or', conditions: [no, no] })).toBe(false);
      const nested: Condition = { kind: 'and', conditions: [yes, { kind: 'or', conditions: [no, yes] }] };
      expect(await holds(ctx.table, key, nested)).toBe(true);
    });

    it('deletes only when the condition holds', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await ctx.table.transact([{ type: 'put', item: item(key.pk, key.sk, { state: 'active' }) }]);
      const whenDone: Condition = { kind: 'compare', attr: 'state', op: '=', value: 'done' };
      await conditionFailure(ctx.table.transact([{ type: 'delete', key, condition: whenDone }]));
      expect(await ctx.table.get(key)).toBeDefined();
      const whenActive: Condition = { kind: 'compare', attr: 'state', op: '=', value: 'active' };
      await ctx.table.transact([{ type: 'delete', key, condition: whenActive }]);
      expect(await ctx.table.get(key)).toBeUndefined();
    });

    it('rejects empty and/or and ordered comparisons of booleans', async () => {
      const key = { pk: ctx.pk(), sk: 'a' };
      await expect(holds(ctx.table, key, { kind: 'and', conditions: [] })).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      await expect(holds(ctx.table, key, { kind: 'or', conditions: [] })).rejects.toBeInstanceOf(
        InvalidWriteError,
      );
      await expect(
        holds(ctx.table, key, { kind: 'compare', attr: 'b', op: '<', value: true }),
      ).rejects.toBeInstanceOf(InvalidWriteError);
    });
  });
}
