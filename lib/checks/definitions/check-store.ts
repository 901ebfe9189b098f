import type { CheckConfig } from '../../check-types/check-config.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import {
  type CheckDefinitionRecord,
  type CheckRecord,
  type CheckStateRecord,
  joinCheck,
  splitCheck,
} from '../../check-types/check-record.ts';
import { locationsOf } from '../../domain/states.ts';
import type { Item, Table, WriteOp } from '../../store/table.ts';
import {
  definitionCreatedOp,
  getCheckDefinition,
  parseDefinitions,
  tenantCheckItems,
} from '../check-items.ts';
import { parseStates, readCheckState, stateCreatedOp, statesById } from '../items/check-state-items.ts';

/** Freezes a parsed record and the objects in it (records are plain JSON values). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The two stored items of a new check (each only if absent): the definition, and the state in the due index. */
export function checkCreatedOps(check: CheckRecord, shard: number): WriteOp[] {
  const { definition, state } = splitCheck(check);
  return [definitionCreatedOp(definition), stateCreatedOp(state, shard)];
}

/** Joins check items (definitions and states, any order); a definition without its state is left out. */
function joinCheckItems(items: readonly Item[]): CheckRecord[] {
  const states = new Map(parseStates(items).map((state) => [state.check_id, state]));
  return parseDefinitions(items).flatMap((definition) => {
    const state = states.get(definition.id);
    return state ? [joinCheck(definition, state)] : [];
  });
}

/**
 * The checks of a tenant's definition items (a read of its partition's `CHECK#` items), joined with
 * their states, read by key from the checks' partitions (strongly consistent where a batch read
 * misses one: a check created a moment ago is listed).
 */
export async function withStates(
  table: Table,
  tenantId: string,
  items: readonly Item[],
): Promise<CheckRecord[]> {
  const ids = parseDefinitions(items).map((definition) => definition.id);
  return joinCheckItems([
    ...items,
    ...(await statesById(table, tenantId, ids, { consistent: true, movePrevious: true })),
  ]);
}

/** What running a check needs: its definition and its state, as two records. */
export interface CheckRun {
  definition: Readonly<CheckDefinitionRecord>;
  state: CheckStateRecord;
}

/** Definitions kept parsed by `run` (the longest kept leave first). */
const DEFINITIONS_KEPT = 50_000;

/**
 * The writes that keep a push check's slug lookup item in step with a create (no `before`), update
 * or delete (no `after`) of the check, for the same transaction (lib/push/slugs/slug-claims.ts; the
 * composition passes it in: lib/push imports the checks engine, not the other way round).
 */
export type SlugOps = (input: {
  tenantId: string;
  checkId: string;
  before?: CheckConfig | undefined;
  after?: CheckConfig | undefined;
  live: (checkId: string) => Promise<boolean>;
}) => Promise<WriteOp[]>;

/** Reads of checks: each is its definition joined with its state; and the slug writes of check changes. */
export function createCheckStore(table: Table, slugs?: SlugOps) {
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
      const state = await readCheckState(table, tenantId, checkId);
      if (!state) return undefined;
      const kept = definitions.get(key);
      if (kept?.version === state.definition_version) return { definition: kept, state };
      const definition = await getCheckDefinition(table, tenantId, checkId, { consistent: true });
      if (!definition) return undefined;
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

    /** The slug writes of a check's create, update or delete (SlugOps); none when no SlugOps was given. */
    slugOps: async (tenantId: string, checkId: string, before?: CheckConfig, after?: CheckConfig) =>
      slugs
        ? slugs({
            tenantId,
            checkId,
            before,
            after,
            live: async (id) => (await run(tenantId, id)) !== undefined,
          })
        : [],

    /** The check as the API shows it: its run, joined (both items are created and deleted together). */
    async get(tenantId: string, checkId: string): Promise<CheckRecord | undefined> {
      const found = await run(tenantId, checkId);
      return found ? joinCheck(found.definition, found.state) : undefined;
    },

    async list(tenantId: string): Promise<CheckRecord[]> {
      return withStates(table, tenantId, await tenantCheckItems(table, tenantId));
    },

    /**
     * One check of the tenant that names `location`, or undefined (a location's deletion is refused
     * while one does). Reads every check definition of the tenant: bounded by its plan's limits
     * (entities times check_limit_per_entity), and a location is deleted rarely.
     */
    async namingLocation(
      tenantId: string,
      location: string,
    ): Promise<{ id: string; name: string } | undefined> {
      const found = parseDefinitions(await tenantCheckItems(table, tenantId)).find((definition) =>
        locationsOf(definition).includes(location),
      );
      return found ? { id: found.id, name: checkNameOf(found) } : undefined;
    },
  };
}

export type CheckStore = ReturnType<typeof createCheckStore>;
