import { readEntityById } from '../catalog/entities.ts';
import { dependenciesOf } from '../catalog/relations.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { listWindows, type WindowRecord } from './maintenance-items.ts';
import { activeSpan } from './schedule.ts';

/**
 * Which maintenance window covers an entity now. A window covers the entities it lists, the
 * entities of the blueprints it lists and, with `include_dependents`, every entity that depends_on
 * a covered entity, directly or not (relations of the catalog, walked breadth first with a bound).
 * The tenant's windows are read once per evaluation; with none active, nothing else is read.
 */

/** The window that covers an entity, and when its current run ends. */
export interface ActiveMaintenance {
  id: string;
  name: string;
  endsMs: number;
}

/** An entity as the lookup needs it: its blueprint, or how to read it, when the caller has them (else it is read). */
export interface MaintenanceSubject {
  id: string;
  blueprint_slug?: string | undefined;
  blueprint?: () => Promise<string | undefined>;
}

/** Answers, for entities of one tenant, the window that covers each now (or undefined). */
export type MaintenanceLookup = (entity: MaintenanceSubject) => Promise<ActiveMaintenance | undefined>;

/** Entities one dependents walk visits at most, and how deep it goes (the graph is acyclic; this bounds a damaged one). */
const MAX_VISITS = 200;
const MAX_DEPTH = 10;

interface Active {
  window: WindowRecord;
  endsMs: number;
}

/** The covering window that ends last (the end-of-window alert then waits for all of them). */
function latest(found: Active[]): ActiveMaintenance | undefined {
  const best = found.reduce<Active | undefined>((a, b) => (a && a.endsMs >= b.endsMs ? a : b), undefined);
  return best ? { id: best.window.id, name: best.window.name, endsMs: best.endsMs } : undefined;
}

/**
 * Which of `windows` cover an entity: `first` stops the dependents walk at the nearest depth that
 * has a covering window (the alert path needs one); `all` keeps walking and answers every one.
 */
export function windowCoverage<A extends { window: WindowRecord }>(
  table: Table,
  tenantId: string,
  windows: A[],
  mode: 'first' | 'all',
): (entity: MaintenanceSubject) => Promise<A[]> {
  const dependentsWindows = windows.filter((a) => a.window.include_dependents);
  const blueprints = new Map<string, Promise<string | undefined>>();
  const blueprintOf = (entity: MaintenanceSubject): Promise<string | undefined> => {
    if (entity.blueprint_slug !== undefined) return Promise.resolve(entity.blueprint_slug);
    if (entity.blueprint) return entity.blueprint();
    let known = blueprints.get(entity.id);
    if (!known) {
      known = readEntityById(table, tenantId, entity.id).then((state) => state?.blueprint_slug);
      blueprints.set(entity.id, known);
    }
    return known;
  };
  const covering = (among: A[], entityId: string, blueprint: string | undefined) =>
    among.filter(
      (a) =>
        a.window.entity_ids.includes(entityId) ||
        (blueprint !== undefined && a.window.blueprint_slugs.includes(blueprint)),
    );

  /** The include_dependents windows covering an entity `entityId` depends on, transitively. */
  const viaUpstreams = async (entityId: string): Promise<A[]> => {
    const seen = new Set<string>([entityId]);
    const all = new Set<A>();
    let frontier = [entityId];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth += 1) {
      const next: string[] = [];
      for (const from of frontier) {
        for (const to of await dependenciesOf(table, tenantId, from)) {
          if (seen.has(to) || seen.size >= MAX_VISITS) continue;
          seen.add(to);
          next.push(to);
        }
      }
      const found: A[] = [];
      for (const id of next) found.push(...covering(dependentsWindows, id, await blueprintOf({ id })));
      if (found.length > 0 && mode === 'first') return found;
      for (const a of found) all.add(a);
      frontier = next;
    }
    return [...all];
  };

  return async (entity) => {
    const direct = covering(windows, entity.id, await blueprintOf(entity));
    if (direct.length > 0 && mode === 'first') return direct;
    if (dependentsWindows.length === 0) return direct;
    const upstream = await viaUpstreams(entity.id);
    return [...new Set([...direct, ...upstream])];
  };
}

/** Reads the tenant's windows once and answers for any number of its entities. */
export async function maintenanceLookup(
  table: Table,
  clock: Clock,
  tenantId: string,
): Promise<MaintenanceLookup> {
  const nowMs = clock.now();
  const active: Active[] = [];
  for (const window of await listWindows(table, tenantId)) {
    const span = activeSpan(window, nowMs);
    if (span) active.push({ window, endsMs: span.endMs });
  }
  if (active.length === 0) return async () => undefined;
  const cover = windowCoverage(table, tenantId, active, 'first');
  return async (entity) => latest(await cover(entity));
}
