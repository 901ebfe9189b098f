import { z } from 'zod';
import { tenantPk } from '../auth/tenancy-keys.ts';
import { CHECK_PREFIX, tenantTransitionsPk } from '../checks/check-keys.ts';
import { CHECK_ENTITY } from '../checks/check-store.ts';
import { type PageRequest, readPage, unexpired } from '../checks/paging.ts';
import { CHECK_TYPES, publicTransition, transitionSchema } from '../checks/records.ts';
import type { Clock } from '../platform/clock.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import { parseItem, queryAll } from '../store/items.ts';
import type { Table } from '../store/table.ts';

/**
 * The tenant's status board, read from entity items (their `state` and the `check_states` the
 * checks engine keeps on them) and check definitions (for `check_type`) only: never from results, so
 * it costs the same however long the checks have been running.
 */

const ENTITY_PREFIX = 'ENT#';

const entityStatusSchema = z.object({
  id: z.string(),
  blueprint_slug: z.string(),
  slug: z.string(),
  name: z.string(),
  state: z.enum(['up', 'degraded', 'down', 'unknown']),
  check_states: z.record(z.string(), z.enum(['unknown', 'up', 'down'])).optional(),
});

const checkTypeSchema = z.object({ id: z.string(), check_type: z.enum(CHECK_TYPES) });

export interface StatusDeps {
  table: Table;
  clock: Clock;
  /** Seals the cursors of the transition feed. */
  cursors: CursorSeal;
}

/** Status reads: the board (GET /v1/status) and the entity transition feed (GET /v1/status/transitions). */
export function createStatusService(deps: StatusDeps) {
  const { table } = deps;

  const tenantItems = (tenantId: string, prefix: string) =>
    queryAll((cursor) =>
      table.query({ pk: tenantPk(tenantId), sk: { op: 'beginsWith', prefix }, cursor, consistent: true }),
    );

  return {
    /** Every entity with its state and the states of its enabled checks, plus counts per state. */
    async board(tenantId: string) {
      const [entityItems, checkItems] = await Promise.all([
        tenantItems(tenantId, ENTITY_PREFIX),
        tenantItems(tenantId, CHECK_PREFIX),
      ]);
      const checkTypes = new Map(
        // The tenant's CHECK# items are definitions and their state items; the type is on the first.
        checkItems
          .filter((item) => item.entity === CHECK_ENTITY)
          .map((item) => {
            const check = parseItem(checkTypeSchema, item);
            return [check.id, check.check_type] as const;
          }),
      );
      const entities = entityItems.map((item) => {
        const entity = parseItem(entityStatusSchema, item);
        const checks = Object.entries(entity.check_states ?? {})
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .flatMap(([id, state]) => {
            const checkType = checkTypes.get(id);
            return checkType ? [{ id, check_type: checkType, state }] : [];
          });
        return {
          id: entity.id,
          blueprint_slug: entity.blueprint_slug,
          slug: entity.slug,
          name: entity.name,
          state: entity.state,
          checks,
        };
      });
      const count = (state: string) => entities.filter((e) => e.state === state).length;
      return {
        entities,
        total: entities.length,
        up: count('up'),
        degraded: count('degraded'),
        down: count('down'),
        unknown: count('unknown'),
      };
    },

    /** A page of the tenant's entity state changes, newest first. */
    async transitions(tenantId: string, page: PageRequest) {
      const live = unexpired(deps.clock.now());
      const read = await readPage(deps, { pk: tenantTransitionsPk(tenantId), prefix: 'trn_' }, page, live);
      return {
        transitions: read.items.map((item) => publicTransition(parseItem(transitionSchema, item))),
        next_cursor: read.nextCursor,
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
