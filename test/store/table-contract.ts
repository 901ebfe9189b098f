import { describe } from 'vitest';
import { describeConditionContract } from './contract/conditions.ts';
import { type MakeTable, useTable } from './contract/context.ts';
import { describeItemContract } from './contract/items.ts';
import { describeQueryContract } from './contract/queries.ts';
import { describeTransactionContract } from './contract/transactions.ts';
import { describeUpdateContract } from './contract/updates.ts';

export type { MakeTable } from './contract/context.ts';

/**
 * The behaviour every engine of the Table port must share (DynamoDB semantics). Each test gets a
 * table from `makeTable` and partition keys of its own, so engines may hand out one shared table.
 */
export function describeTableContract(name: string, makeTable: MakeTable): void {
  describe(`Table contract: ${name}`, () => {
    const ctx = useTable(makeTable);
    describeItemContract(ctx);
    describeConditionContract(ctx);
    describeUpdateContract(ctx);
    describeTransactionContract(ctx);
    describeQueryContract(ctx);
  });
}
