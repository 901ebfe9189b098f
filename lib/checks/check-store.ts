import { stamp } from '../store/item-type.ts';
import { parseItem, queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Item, NewItem, Table } from '../store/table.ts';
import { CHECK_PREFIX, checkGsi1, checkKeys, checkTypes, duePk, dueSk } from './check-keys.ts';
import {
  type CheckDefinitionRecord,
  type CheckRecord,
  type CheckStateRecord,
  checkDefinitionSchema,
  checkStateSchema,
} from './records.ts';

/** Freezes a parsed record and the objects in it (records are plain JSON values). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The `entity` attribute of the two items of a check. */
export const CHECK_ENTITY = checkTypes.check.entity;
export const CHECK_STATE_ENTITY = checkTypes.state.entity;

/** A check's definition (what the API writes) and its running state (what claims and results write). */
export function splitCheck(check: CheckRecord): {
  definition: CheckDefinitionRecord;
  state: CheckStateRecord;
} {
  const {
    state,
    consecutive_failures,
    last_result_at,
    last_push_at,
    next_run_at,
    current_rollup,
    state_version,
    ...definition
  } = check;
  return {
    definition,
    state: {
      check_id: check.id,
      tenant_id: check.tenant_id,
      execution_mode: check.execution_mode,
      interval_seconds: check.interval_seconds,
      definition_version: check.version,
      state,
      consecutive_failures,
      last_result_at,
      ...(last_push_at !== undefined ? { last_push_at } : {}),
      next_run_at,
      ...(current_rollup ? { current_rollup } : {}),
      version: state_version,
    },
  };
}

/** The check read back from its two items. */
export function joinCheck(definition: CheckDefinitionRecord, state: CheckStateRecord): CheckRecord {
  return {
    ...definition,
    state: state.state,
    consecutive_failures: state.consecutive_failures,
    last_result_at: state.last_result_at,
    ...(state.last_push_at !== undefined ? { last_push_at: state.last_push_at } : {}),
    next_run_at: state.next_run_at,
    ...(state.current_rollup ? { current_rollup: state.current_rollup } : {}),
    state_version: state.version,
  };
}

/** The due-index attributes (gsi2) of a state item scheduled at `nextRunAt`. */
function dueIndex(checkId: string, nextRunAt: string | null, shard: number) {
  return nextRunAt ? { gsi2pk: duePk(shard), gsi2sk: dueSk(nextRunAt, checkId) } : {};
}

/** The two stored items of a new check: gsi1 on the definition (its entity's checks), gsi2 on the state. */
export function checkItems(check: CheckRecord, shard: number): { definition: NewItem; state: NewItem } {
  const { definition, state } = splitCheck(check);
  return {
    definition: {
      ...checkKeys.check(check.tenant_id, check.id),
      ...stamp(checkTypes.check),
      ...checkGsi1(check.entity_id, check.id),
      ...definition,
    },
    state: {
      ...checkKeys.state(check.tenant_id, check.id),
      ...stamp(checkTypes.state),
      ...dueIndex(check.id, check.next_run_at, shard),
      ...state,
    },
  };
}

/** The due-index attributes of the state item to set (or remove) when a check's next run changes. */
export function dueIndexUpdate(
  checkId: string,
  nextRunAt: string | null,
  shard: number,
): { set: Record<string, unknown>; remove: string[] } {
  return nextRunAt
    ? { set: { next_run_at: nextRunAt, ...dueIndex(checkId, nextRunAt, shard) }, remove: [] }
    : { set: { next_run_at: null }, remove: ['gsi2pk', 'gsi2sk'] };
}

/** Joins a tenant's check items (definitions and states, in any order); a definition without its state is left out. */
export function joinCheckItems(items: Item[]): CheckRecord[] {
  const states = new Map<string, CheckStateRecord>();
  const definitions: CheckDefinitionRecord[] = [];
  for (const item of items) {
    if (item.entity === CHECK_STATE_ENTITY) {
      const state = parseItem(checkStateSchema, item);
      states.set(state.check_id, state);
    } else if (item.entity === CHECK_ENTITY) {
      definitions.push(parseItem(checkDefinitionSchema, item));
    }
  }
  return definitions.flatMap((definition) => {
    const state = states.get(definition.id);
    return state ? [joinCheck(definition, state)] : [];
  });
}

/** Every check item of a tenant (definitions and states, adjacent), read strongly consistent. */
export function tenantCheckItems(table: Table, tenantId: string): Promise<Item[]> {
  return queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: CHECK_PREFIX },
      cursor,
      consistent: true,
    }),
  );
}

/** What running a check needs: its definition and its state, as two records. */
export interface CheckRun {
  definition: Readonly<CheckDefinitionRecord>;
  state: CheckStateRecord;
}

/** Definitions kept parsed by `run` (the longest kept leave first). */
const DEFINITIONS_KEPT = 50_000;

/** Reads of checks: each is its definition joined with its state. */
export function createCheckStore(table: Table) {
  // Definitions change only through the API, which writes their version onto the state item in
  // the same transaction: a cached definition of the state's `definition_version` is current.
  const definitions = new Map<string, Readonly<CheckDefinitionRecord>>();
  const keep = (key: string, definition: CheckDefinitionRecord) => {
    definitions.delete(key);
    definitions.set(key, deepFreeze(definition));
    if (definitions.size > DEFINITIONS_KEPT) {
      const oldest = definitions.keys().next();
      if (!oldest.done) definitions.delete(oldest.value);
    }
  };

  /**
   * The check as a run needs it: its state item, read strongly consistent on every call, and its
   * definition, read only when the one kept for it is not the version the state names.
   */
  const run = async (tenantId: string, checkId: string): Promise<CheckRun | undefined> => {
    if (!/^chk_[0-9A-Z]{26}$/.test(checkId)) return undefined;
    const key = `${tenantId}/${checkId}`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const stateItem = await table.get(checkKeys.state(tenantId, checkId), { consistent: true });
      if (!stateItem) return undefined;
      const state = parseItem(checkStateSchema, stateItem);
      const kept = definitions.get(key);
      if (kept?.version === state.definition_version) return { definition: kept, state };
      const item = await table.get(checkKeys.check(tenantId, checkId), { consistent: true });
      if (!item) return undefined;
      const definition = parseItem(checkDefinitionSchema, item);
      if (definition.version === state.definition_version) {
        keep(key, definition);
        return { definition, state };
      }
      // An API write landed between the two reads: read the state again.
    }
    throw new Error(`check ${checkId} kept changing while being read`);
  };

  return {
    run,

    /** The check as the API shows it: its run, joined (both items are created and deleted together). */
    async get(tenantId: string, checkId: string): Promise<CheckRecord | undefined> {
      const found = await run(tenantId, checkId);
      return found ? joinCheck(found.definition, found.state) : undefined;
    },

    async list(tenantId: string): Promise<CheckRecord[]> {
      return joinCheckItems(await tenantCheckItems(table, tenantId));
    },
  };
}

export type CheckStore = ReturnType<typeof createCheckStore>;
