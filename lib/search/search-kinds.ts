import { readEntityById, readEntityPointers } from '../catalog/entities.ts';
import { createEntitySearch } from '../catalog/services.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import type { CheckDefinitionRecord } from '../check-types/check-record.ts';
import {
  entityDefinitionItemsPage,
  getCheckDefinition,
  parseDefinitions,
  tenantCheckItemsPage,
} from '../checks/check-items.ts';
import { shownCheckStates } from '../checks/results.ts';
import type { EntityState } from '../domain/catalog.ts';
import {
  getIncident,
  type IncidentRecord,
  isIncidentId,
  readIncidents,
  readRecentIncidents,
} from '../incidents/incident-items.ts';
import { isId } from '../platform/ids.ts';
import { listStatusPages } from '../status-pages/status-pages.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';

/**
 * The reads behind GET /v1/search, one per kind, each bounded whatever the tenant's size: entities
 * through their name and slug indexes (from the prefix on), checks by a bounded read of the
 * tenant's check items plus the checks of the entities found, shared channels and status pages
 * from their small per-tenant lists, incidents of the entities found plus a bounded read of the
 * newest. Every read is keyed by the caller's tenant: another tenant's objects are never read.
 */

const SEARCH_BOUNDS = {
  /** Check items (a definition and its state each) one search reads at most: about 1,000 checks. */
  checkItems: 2_000,
  /** Recent incidents one search reads at most, besides those of the entities found. */
  incidents: 500,
  /** Entities found whose checks and incidents are read too. */
  relatedEntities: 5,
  /** Of each of those entities: checks and incidents read. */
  perEntity: 10,
  /** Channels (shared and checks' own) one search reads at most. */
  channels: 200,
} as const;

/** A channel as search reads it: a check's own carries its `check_id`. */
interface SearchedChannel {
  id: string;
  name?: string | undefined;
  channel_type: string;
  check_id?: string | undefined;
}

export interface SearchDeps {
  table: Table;
  cursors: CursorSeal;
  /** The tenant's channels (shared and checks' own), at most `limit` (lib/notify's, given by the composition). */
  tenantChannels(tenantId: string, limit: number): Promise<readonly SearchedChannel[]>;
}

/** Case-insensitive containment: what every kind but the indexed entities matches by. */
const contains = (text: string, q: string) => text.toLowerCase().includes(q.toLowerCase());

/** Entities whose name or slug starts with `q` (the search indexes), or the entity of that id. */
export async function findEntities(
  deps: SearchDeps,
  tenantId: string,
  q: string,
  limit: number,
): Promise<EntityState[]> {
  if (isId('ent', q)) {
    const entity = await readEntityById(deps.table, tenantId, q);
    return entity ? [entity] : [];
  }
  const search = createEntitySearch(deps);
  const [byName, bySlug] = await Promise.all([
    search.page(tenantId, 'name', q, {}, { limit }),
    search.page(tenantId, 'slug', q.toLowerCase(), {}, { limit }),
  ]);
  const found = new Map([...byName.entities, ...bySlug.entities].map((e) => [e.id, e]));
  return [...found.values()].slice(0, limit);
}

export interface FoundCheck {
  check: CheckDefinitionRecord;
  name: string;
  state: string | null;
}

/** Checks named with `q` (a bounded read of the tenant's), the checks of `entities`, or the check of that id. */
export async function findChecks(
  deps: SearchDeps,
  tenantId: string,
  q: string,
  entities: readonly EntityState[],
  limit: number,
): Promise<FoundCheck[]> {
  const found = new Map<string, CheckDefinitionRecord>();
  const add = (check: CheckDefinitionRecord) => {
    if (found.size < limit && !found.has(check.id)) found.set(check.id, check);
  };
  if (isId('chk', q)) {
    const check = await getCheckDefinition(deps.table, tenantId, q);
    if (check) add(check);
  } else {
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await tenantCheckItemsPage(deps.table, tenantId, {
        limit: SEARCH_BOUNDS.checkItems - read,
        cursor,
      });
      read += page.items.length;
      cursor = page.cursor;
      for (const check of parseDefinitions(page.items)) if (contains(checkNameOf(check), q)) add(check);
    } while (cursor && read < SEARCH_BOUNDS.checkItems && found.size < limit);
    for (const entity of entities.slice(0, SEARCH_BOUNDS.relatedEntities)) {
      if (found.size >= limit) break;
      const page = await entityDefinitionItemsPage(deps.table, tenantId, entity.id, {
        limit: SEARCH_BOUNDS.perEntity,
        cursor: undefined,
      });
      for (const check of parseDefinitions(page.items)) add(check);
    }
  }
  // Each check's state as its page shows it (a pull check's from its cell), however it was found.
  const checks = [...found.values()];
  const states = await shownCheckStates(deps.table, tenantId, checks);
  return checks.map((check) => ({ check, name: checkNameOf(check), state: states.get(check.id) ?? null }));
}

/** The names of these entities, by id (one batch read of their id pointers). */
export async function entityNames(
  deps: SearchDeps,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const pointers = await readEntityPointers(deps.table, tenantId, ids);
  return new Map(pointers.flatMap((p) => (p.name === undefined ? [] : [[p.id, p.name] as const])));
}

/** Shared channels (not a check's own) whose name contains `q`; their config (secrets) is never kept. */
export async function findChannels(deps: SearchDeps, tenantId: string, q: string, limit: number) {
  const channels = await deps.tenantChannels(tenantId, SEARCH_BOUNDS.channels);
  return channels
    .filter((c) => !('check_id' in c) && contains(c.name ?? '', q))
    .slice(0, limit)
    .map((c) => ({ id: c.id, name: c.name ?? c.id, channel_type: c.channel_type }));
}

/** Incidents of the entities found, of entities named with `q` (the newest read), or the incident of that id. */
export async function findIncidents(
  deps: SearchDeps,
  tenantId: string,
  q: string,
  entities: readonly EntityState[],
  limit: number,
): Promise<IncidentRecord[]> {
  if (isIncidentId(q)) {
    const incident = await getIncident(deps.table, tenantId, q);
    return incident ? [incident] : [];
  }
  const related = await Promise.all(
    entities
      .slice(0, SEARCH_BOUNDS.relatedEntities)
      .map((e) => readIncidents(deps, tenantId, { entity_id: e.id, limit: SEARCH_BOUNDS.perEntity })),
  );
  const recent = await readRecentIncidents(deps.table, tenantId, {
    want: limit,
    scan: SEARCH_BOUNDS.incidents,
    keep: (r) => contains(r.entity_name, q),
  });
  const found = new Map([...related.flatMap((r) => r.incidents), ...recent].map((r) => [r.id, r]));
  // Newest first: incident ids are time-ordered.
  return [...found.values()].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, limit);
}

/** Status pages whose title or slug contains `q` (the tenant holds at most 20). */
export async function findStatusPages(deps: SearchDeps, tenantId: string, q: string, limit: number) {
  const pages = await listStatusPages(deps.table, tenantId);
  return pages.filter((p) => contains(p.title, q) || contains(p.slug, q)).slice(0, limit);
}
