import * as z from 'zod';
import type { FlapHistory } from '../../domain/states.ts';
import { stateChangeEventSchema } from '../../domain/states.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { checkPartition } from '../../store/partitions.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';

/**
 * Owner of `notify_flap`: a check's flap history (lib/domain/states/flap.ts), one item in the check's
 * partition (the check's purge removes it): the changes inside the window (a bounded list), whether
 * it is flapping, when it settles, the notice's figures and the latest held alert (what the settle
 * alert reports). Writes hold on `version`.
 */

const flapStateSchema = z.object({
  tenant_id: z.string(),
  check_id: z.string(),
  changes: z.array(z.object({ id: z.string(), at_ms: z.number().int() })).max(64),
  flapping_since_ms: z.number().int().nullable(),
  settle_due_ms: z.number().int().nullable(),
  /** What the `flapping` notice says: the changes counted and the window, set when flapping began. */
  notice: z
    .object({ changes: z.number().int(), window_seconds: z.number().int(), transition_id: z.string() })
    .nullable(),
  /** The latest alert held while flapping: the settle alert reports its state. */
  held_event: stateChangeEventSchema.nullable(),
  version: z.number().int(),
});
export type FlapStateRecord = z.infer<typeof flapStateSchema>;

const flapState = defineItem({
  type: itemType('notify_flap'),
  schema: flapStateSchema,
  key: (k: { check_id: string }) => ({ pk: checkPartition(k.check_id), sk: 'NOTIFY#FLAP' }),
  docKey: { check_id: '<chk_id>' },
});

/** The check's flap state (consistent), or undefined while it never changed since detection began. */
export function getFlapState(table: Table, checkId: string): Promise<FlapStateRecord | undefined> {
  return flapState.get(table, { check_id: checkId }, { consistent: true });
}

/** What the check's `flapping` notice says (the changes counted, the window), or undefined when none is stored. */
export async function flapNoticeOf(
  table: Table,
  checkId: string,
): Promise<{ changes: number; window_seconds: number } | undefined> {
  const notice = (await getFlapState(table, checkId))?.notice;
  return notice ? { changes: notice.changes, window_seconds: notice.window_seconds } : undefined;
}

/** The history part of a stored state (empty for none). */
export function historyOf(record: FlapStateRecord | undefined): FlapHistory {
  return {
    changes: record?.changes ?? [],
    flapping_since_ms: record?.flapping_since_ms ?? null,
    settle_due_ms: record?.settle_due_ms ?? null,
  };
}

/**
 * Writes `next` over the version read (undefined: none stored); answers false when another writer
 * moved it meanwhile (read again and decide again).
 */
export async function putFlapState(
  table: Table,
  next: Omit<FlapStateRecord, 'version'>,
  readVersion: number | undefined,
): Promise<boolean> {
  try {
    await table.transact([
      flapState.put(
        { ...next, version: (readVersion ?? 0) + 1 },
        readVersion === undefined
          ? { kind: 'itemNotExists' }
          : { kind: 'compare', attr: 'version', op: '=', value: readVersion },
      ),
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
