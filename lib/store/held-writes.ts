import { ConflictError, NotFoundError } from '../platform/errors.ts';
import { ConditionFailedError, type Table, type WriteOp } from './table.ts';

/**
 * A replace held on the version read (PUT of a maintenance window or a status page): a failed
 * condition is a 404 when the object is gone by then, else a 409 saying it changed meanwhile.
 */
export async function replaceHeld(
  table: Table,
  ops: WriteOp[],
  object: { name: string; exists: () => Promise<boolean> },
): Promise<void> {
  try {
    await table.transact(ops);
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    if (!(await object.exists())) throw new NotFoundError(object.name);
    throw new ConflictError(`the ${object.name} changed meanwhile: read it again`);
  }
}

/** A delete held on the object's existence: a failed condition is a 404. */
export async function deleteHeld(table: Table, ops: WriteOp[], name: string): Promise<void> {
  try {
    await table.transact(ops);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new NotFoundError(name);
    throw error;
  }
}
