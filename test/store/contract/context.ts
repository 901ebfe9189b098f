import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect } from 'vitest';
import {
  type Condition,
  ConditionFailedError,
  type Key,
  type NewItem,
  type Table,
} from '../../../lib/store/table.ts';

/** What a contract suite gets from an engine: a table and how to dispose of it. */
interface TableUnderTest {
  table: Table;
  cleanup(): Promise<void>;
}

export type MakeTable = () => Promise<TableUnderTest>;

/** Per-test state: the table, and partition keys no other test (or earlier run) uses. */
export interface ContractContext {
  readonly table: Table;
  /** A partition key value unique to the running test. */
  pk(name?: string): string;
}

/** Registers beforeEach/afterEach that make and clean up a table for every test. */
export function useTable(makeTable: MakeTable): ContractContext {
  let current: TableUnderTest | undefined;
  let runId = '';
  beforeEach(async () => {
    current = await makeTable();
    runId = randomUUID();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return {
    get table() {
      if (!current) throw new Error('no table outside a test');
      return current.table;
    },
    pk: (name = 'p') => `${runId}#${name}`,
  };
}

/** An item with the generic keys and an entity. */
export function item(pk: string, sk: string, attrs: Record<string, unknown> = {}): NewItem {
  return { pk, sk, entity: 'thing', schema_version: 1, ...attrs };
}

/** The ConditionFailedError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function conditionFailure(promise: Promise<unknown>): Promise<ConditionFailedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConditionFailedError);
  if (!(error instanceof ConditionFailedError)) throw new Error('unreachable');
  return error;
}

/** Whether `condition` holds for the item at `key`, asked through a one-op conditionCheck. */
export async function holds(table: Table, key: Key, condition: Condition): Promise<boolean> {
  try {
    await table.transact([{ type: 'conditionCheck', key, condition }]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
