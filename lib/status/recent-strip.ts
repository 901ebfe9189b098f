import type { CheckDefinitionRecord } from '../check-types/check-record.ts';
import { checkDefinitionsById } from '../checks/check-items.ts';
import { dayCountsOf, dayUptimeOf, latestResultsOf, parseStates, statesById } from '../checks/results.ts';
import { sharingQueries } from '../store/shared-queries.ts';
import type { Table } from '../store/table.ts';

/**
 * The board's recent-results strip (GET /v1/status?include=recent, docs/api.md): per entity its
 * newest RECENT_SLOTS result times across its checks, oldest first, each the worst result at that
 * time (down: a failure; degraded: a degraded success; up), read with latestResultsOf (one query
 * per cell of pull checks on the page, one per push check). Never a window of history.
 * Beside the strip, the entity's 24 h uptime across its enabled checks, counted the checks list's
 * way (dayCountsOf in lib/checks/results.ts: up to 288 rollup items per push check, or per cell
 * on the page, a cell's read once).
 */

export const RECENT_SLOTS = 30;

type StripState = 'up' | 'degraded' | 'down';
interface StripSlot {
  at: string;
  state: StripState;
}

const RANK: Record<StripState, number> = { up: 0, degraded: 1, down: 2 };
const stateOf = (ok: boolean, degraded: boolean | undefined): StripState =>
  !ok ? 'down' : degraded ? 'degraded' : 'up';

export interface BoardRecent {
  recent: StripSlot[];
  uptime_24h: number | null;
  results_24h: number;
}

type BoardEntity = { id: string; checkIds: readonly string[] };

/** entity id -> its strip and 24 h uptime, for `entities` (each with its check ids) of one tenant. */
export async function boardRecent(
  table: Table,
  tenantId: string,
  entities: readonly BoardEntity[],
  nowMs: number,
): Promise<Map<string, BoardRecent>> {
  const ids = entities.flatMap((e) => e.checkIds);
  const [definitions, stateItems] = await Promise.all([
    checkDefinitionsById(table, tenantId, ids),
    statesById(table, tenantId, ids),
  ]);
  // A push check's newest 5 minutes are on its state item (`current_rollup`), not yet in a rollup.
  const states = new Map(parseStates(stateItems).map((s) => [s.check_id, s]));
  const enabled = definitions
    .filter((d) => d.enabled)
    .map((d) => ({ ...d, current_rollup: states.get(d.id)?.current_rollup }));
  const [strips, days] = await Promise.all([
    recentStrips(table, definitions, entities),
    dayCountsOf(sharingQueries(table), enabled, nowMs),
  ]);
  return new Map(
    entities.map((e) => [
      e.id,
      { recent: strips.get(e.id) ?? [], ...dayUptimeOf(e.checkIds.map((id) => days.get(id))) },
    ]),
  );
}

/** entity id -> its strip, for `entities` given the definitions of their checks. */
async function recentStrips(
  table: Table,
  definitions: readonly CheckDefinitionRecord[],
  entities: readonly BoardEntity[],
): Promise<Map<string, StripSlot[]>> {
  // check id -> (time -> state) of its newest results.
  const byCheck = new Map<string, Map<string, StripState>>();
  const add = (checkId: string, at: string, state: StripState) => {
    const times = byCheck.get(checkId) ?? new Map<string, StripState>();
    const before = times.get(at);
    if (!before || RANK[state] > RANK[before]) times.set(at, state);
    byCheck.set(checkId, times);
  };
  const latest = await latestResultsOf(table, definitions, { limit: RECENT_SLOTS });
  for (const results of latest.values())
    for (const r of results) add(r.check_id, r.slot_at, stateOf(r.success, r.degraded));

  const strips = new Map<string, StripSlot[]>();
  for (const entity of entities) {
    const merged = new Map<string, StripState>();
    for (const checkId of entity.checkIds)
      for (const [at, state] of byCheck.get(checkId) ?? []) {
        const before = merged.get(at);
        if (!before || RANK[state] > RANK[before]) merged.set(at, state);
      }
    const newest = [...merged].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, RECENT_SLOTS);
    strips.set(
      entity.id,
      newest.reverse().map(([at, state]) => ({ at, state })),
    );
  }
  return strips;
}
