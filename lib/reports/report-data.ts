import { listBlueprints } from '../catalog/blueprints.ts';
import { type EntityRecord, listEntities } from '../catalog/entities.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import { checkDefinitionsById } from '../checks/check-items.ts';
import { checkDailyRollups, type DailyCheck, entityDailyChecks } from '../checks/results.ts';
import { mergeRollups, percentileFromRollup, type Rollup } from '../domain/rollups.ts';
import { readRecentIncidents } from '../incidents/incident-items.ts';
import { listStatusPages } from '../status-pages/status-pages.ts';
import type { Table } from '../store/table.ts';
import { type CheckSource, REPORT_BOUNDS, type ReportInput } from './report-model.ts';
import { localDate, type ReportPeriod } from './report-period.ts';

/**
 * What a report reads of a tenant, from the reads that exist and never from raw results: the
 * daily rollups of each entity's checks over the period's days (lib/checks/results: the same reads
 * as the 90-day bars), the incident list, the status pages. Bounded: at most MAX_ENTITIES entities
 * (blueprint by blueprint) and MAX_INCIDENTS incidents are read for one report.
 */

const MAX_ENTITIES = 500;
const MAX_INCIDENTS = 2000;
const INCIDENT_SCAN = 4000;
const CONCURRENCY = 8;

/**
 * The days whose daily rollups a period reads: its local calendar days, read as UTC days (rollups
 * are kept per UTC day), so a week is 7 days and a month its days, whatever the zone.
 */
function periodDays(period: ReportPeriod): string[] {
  const days: string[] = [];
  const first = localDate(period.startMs, period.timeZone);
  const last = localDate(period.endMs - 1, period.timeZone);
  for (let ms = Date.parse(`${first}T00:00:00Z`); ; ms += 86_400_000) {
    const date = new Date(ms).toISOString().slice(0, 10);
    days.push(date);
    if (date >= last || days.length > 31) return days;
  }
}

async function eachBounded<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

interface CheckRollups {
  check: DailyCheck;
  entity: EntityRecord;
  rollups: Rollup[];
}

/** The report's input for `tenantName`'s tenant over `period`, read at `nowMs`. */
export async function readReportInput(
  table: Table,
  tenant: { id: string; name: string },
  period: ReportPeriod,
  nowMs: number,
): Promise<ReportInput> {
  const days = periodDays(period);
  const [blueprints, pages, incidents] = await Promise.all([
    listBlueprints(table, tenant.id),
    listStatusPages(table, tenant.id),
    readRecentIncidents(table, tenant.id, {
      want: MAX_INCIDENTS,
      scan: INCIDENT_SCAN,
      keep: (i) =>
        Date.parse(i.opened_at) < period.endMs &&
        (i.resolved_at === null || Date.parse(i.resolved_at) >= period.startMs),
    }),
  ]);
  const entitiesOf = new Map<string, EntityRecord[]>();
  let budget = MAX_ENTITIES;
  for (const bp of [...blueprints].sort((a, b) => a.name.localeCompare(b.name))) {
    const entities = budget > 0 ? (await listEntities(table, tenant.id, bp.slug)).slice(0, budget) : [];
    budget -= entities.length;
    entitiesOf.set(bp.slug, entities);
  }
  const checks: CheckRollups[] = [];
  const byEntity = new Map<string, Rollup[]>();
  await eachBounded([...entitiesOf.values()].flat(), async (entity) => {
    const entityChecks = await entityDailyChecks(table, tenant.id, entity.id);
    const own: Rollup[] = [];
    for (const check of entityChecks) {
      const rollups = [...(await checkDailyRollups(table, check, days, nowMs)).values()];
      checks.push({ check, entity, rollups });
      own.push(...rollups);
    }
    byEntity.set(entity.id, own);
  });
  const slowest = await namedSlowest(table, tenant.id, checks);
  return {
    tenantName: tenant.name,
    period,
    blueprints: blueprints.map((bp) => ({
      name: bp.name,
      rollups: (entitiesOf.get(bp.slug) ?? []).flatMap((e) => byEntity.get(e.id) ?? []),
    })),
    pages: pages.map((page) => ({
      name: page.title,
      rollups: page.entity_ids.flatMap((id) => byEntity.get(id) ?? []),
    })),
    incidents: incidents.map((i) => ({
      entityName: i.entity_name,
      openedMs: Date.parse(i.opened_at),
      resolvedMs: i.resolved_at === null ? null : Date.parse(i.resolved_at),
    })),
    checks: slowest,
    checkCount: checks.length,
  };
}

/** The slowest checks by p95 with their names (read for those few only). */
async function namedSlowest(table: Table, tenantId: string, checks: CheckRollups[]): Promise<CheckSource[]> {
  const ranked = checks
    .map((c) => ({ ...c, p95: percentileFromRollup(mergeRollups(c.rollups), 0.95) }))
    .filter((c) => c.p95 !== null)
    .sort((a, b) => (b.p95 ?? 0) - (a.p95 ?? 0))
    .slice(0, REPORT_BOUNDS.slowest);
  const definitions = new Map(
    (
      await checkDefinitionsById(
        table,
        tenantId,
        ranked.map((c) => c.check.id),
      )
    ).map((d) => [d.id, d]),
  );
  return ranked.map((c) => {
    const definition = definitions.get(c.check.id);
    return {
      name: definition ? checkNameOf(definition) : c.entity.name,
      entityName: c.entity.name,
      rollups: c.rollups,
    };
  });
}
