import * as z from 'zod';
import { parseEntityState, readEntityItems, readEntityPointers } from '../../catalog/entities.ts';
import { readRecentIncidents } from '../../incidents/incident-items.ts';
import { coveringIncident } from '../../incidents/root-cause.ts';
import { maintenanceLookup } from '../../maintenance/evaluate.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import type { Table } from '../../store/table.ts';
import {
  archiveMonths,
  historyPage,
  historyPageSchema,
  type ImpactLevel,
  openWrittenIncidents,
  writtenIncidentSchema,
} from '../incidents/public-incidents.ts';
import { IMPACT_LEVELS } from '../items/page-incident-items.ts';
import type { StatusPageRecord } from '../items/status-page-items.ts';
import { maintenanceNoticeSchema, pageNotices } from '../maintenance-notices/public-notices.ts';

/**
 * What a public status page shows (DECISIONS.md): the title and description its owner wrote, its
 * entities' names and states (and whether a maintenance window covers each now, never the window
 * itself), 90 daily uptime bars each, and (when `show_incidents`) their open and
 * last 10 resolved incidents. An entity's shown state is the worse of its checks' and the impact
 * the page's open written incidents declare on it, and the page's state the worst of those, as
 * Atlassian Statuspage derives a component's status and the page's top-level status: an incident
 * the owner wrote of a major outage makes the page "down" whatever the checks say. Built field by field from an allow-list, so nothing else of a record
 * (ids, slugs, field values, check targets, error messages, channels) can reach the HTML, the JSON
 * or the badge: each is rendered from this view alone.
 */

export const PAGE_DAYS = 90;
/** Resolved incidents shown, and how many of the tenant's newest incidents are read to find them. */
const RESOLVED_SHOWN = 10;
const INCIDENTS_SCANNED = 500;

const state = z.enum(['up', 'degraded', 'down', 'unknown']);

export const publicPageSchema = z
  .strictObject({
    title: z.string(),
    description: z.string().nullable(),
    state: state.meta({
      description:
        'The worst state of the entities (an entity under maintenance counts only by its open incidents’ impact); unknown when none is known',
    }),
    maintenance: z.boolean().meta({ description: 'A maintenance window covers one of the entities now' }),
    generated_at: z.string(),
    entities: z.array(
      z.strictObject({
        name: z.string(),
        state: state.meta({
          description:
            'The worse of its checks’ state and `impact` (degraded_performance and partial_outage count as degraded, major_outage as down)',
        }),
        impact: z.enum(IMPACT_LEVELS).nullable().meta({
          description: 'The worst impact the page’s open written incidents declare on it; null: none',
        }),
        in_maintenance: z.boolean().meta({
          description:
            'A maintenance window covers the entity now: shown as "Under maintenance" unless an open incident’s impact is as bad as its state',
        }),
        uptime_ratio: z.number().nullable().meta({ description: 'Over the days that have data; null: none' }),
        days: z.array(
          z.strictObject({ date: z.string(), uptime_ratio: z.number().nullable() }).meta({
            description: 'One UTC day, oldest first; uptime_ratio null when nothing ran that day',
          }),
        ),
      }),
    ),
    incidents: z
      .strictObject({
        open: z.array(
          z.strictObject({
            entity_name: z.string(),
            state: z.enum(['open', 'acknowledged']),
            opened_at: z.string(),
          }),
        ),
        resolved: z.array(
          z.strictObject({
            entity_name: z.string(),
            opened_at: z.string(),
            resolved_at: z.string(),
            duration_seconds: z.number().int(),
          }),
        ),
      })
      .nullable()
      .meta({ description: 'null when the page does not show incidents' }),
    written_incidents: z
      .strictObject({
        open: z.array(writtenIncidentSchema),
        history: historyPageSchema,
        archive: z.array(z.string()).meta({
          description:
            'The months (yyyy-mm, newest first) of GET /p/{slug}/history/{month} the page links: those of the last 90 days from the page’s creation on (an earlier one only with an incident)',
        }),
      })
      .meta({
        description:
          'Incidents the owner wrote and published: the open ones, and the first page of the last 90 days (GET /p/{slug}/history reads on)',
      }),
    maintenance_notices: z.array(maintenanceNoticeSchema).meta({
      description:
        'Announced maintenance windows that cover one of the entities: ahead (from their announcement), in progress, and completed less than 24 h ago',
    }),
  })
  .meta({ id: 'PublicStatusPage' });
export type PublicPage = z.infer<typeof publicPageSchema>;
export type PublicState = z.infer<typeof state>;

/** One entity's daily bars, oldest first (the uptime feature's rollups), keyed by entity id. */
interface DailyBar {
  date: string;
  uptime_ratio: number | null;
}
export type DailyUptimeReader = (
  tenantId: string,
  entityIds: string[],
  days: number,
) => Promise<Map<string, DailyBar[]>>;

export interface PublicViewDeps {
  table: Table;
  clock: Clock;
  dailyUptime: DailyUptimeReader;
}

const SEVERITY: Record<PublicState, number> = { up: 1, unknown: 0, degraded: 2, down: 3 };

/** The state an incident's impact shows an entity in. */
const IMPACT_STATE: Record<ImpactLevel, PublicState> = {
  degraded_performance: 'degraded',
  partial_outage: 'degraded',
  major_outage: 'down',
};

/** The worse of two states (down, then degraded, then up; unknown below all). */
const worse = (a: PublicState, b: PublicState) => (SEVERITY[b] > SEVERITY[a] ? b : a);

/** The worst state of the page: down, then degraded, then up; unknown when nothing is known. */
function overallState(states: PublicState[]): PublicState {
  return states.reduce<PublicState>((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'unknown');
}

/** The ratio over the days that have one (each day weighs the same), 5 decimals; null when none has. */
function meanRatio(days: DailyBar[]): number | null {
  const known = days.flatMap((d) => (d.uptime_ratio === null ? [] : [d.uptime_ratio]));
  if (known.length === 0) return null;
  return Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 1e5) / 1e5;
}

const seconds = (from: string, to: string) =>
  Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000));

/** Builds the public view of `page` (eventually consistent reads; the answer is cached 30 s anyway). */
export async function buildPublicView(deps: PublicViewDeps, page: StatusPageRecord): Promise<PublicPage> {
  const tenantId = page.tenant_id;
  const [found, bars, maintenance] = await Promise.all([
    readEntityPointers(deps.table, tenantId, page.entity_ids).then(async (pointers) =>
      (await readEntityItems(deps.table, tenantId, pointers)).map(parseEntityState),
    ),
    deps.dailyUptime(tenantId, page.entity_ids, PAGE_DAYS),
    maintenanceLookup(deps.table, deps.clock, tenantId),
  ]);
  const byId = new Map(found.map((entity) => [entity.id, entity]));
  // The owner's order; entities deleted since the page was saved are left out.
  const shown = page.entity_ids.flatMap((id) => {
    const entity = byId.get(id);
    return entity ? [entity] : [];
  });
  const [covered, written] = await Promise.all([
    Promise.all(shown.map(async (entity) => (await maintenance(entity)) !== undefined)),
    writtenOf(deps, page, shown),
  ]);
  const entities = shown.map((entity, i) => {
    const days = (bars.get(entity.id) ?? []).map((d) => ({ date: d.date, uptime_ratio: d.uptime_ratio }));
    const impact = written.impact.get(entity.id) ?? null;
    return {
      name: entity.name,
      state: impact === null ? entity.state : worse(entity.state, IMPACT_STATE[impact]),
      impact,
      in_maintenance: covered[i] ?? false,
      uptime_ratio: meanRatio(days),
      days,
    };
  });
  return {
    title: page.title,
    description: page.description,
    // Planned work does not make the page "down": an entity under maintenance counts only by what
    // the owner wrote of it (an open incident's impact), not by its checks.
    state: overallState(
      entities.map((entity) =>
        !entity.in_maintenance ? entity.state : entity.impact ? IMPACT_STATE[entity.impact] : 'unknown',
      ),
    ),
    maintenance: covered.some(Boolean),
    generated_at: isoTime(deps.clock.now()),
    entities,
    incidents: page.show_incidents ? await incidentsOf(deps, tenantId, shown) : null,
    written_incidents: written.view,
    maintenance_notices: await pageNotices(deps.table, tenantId, shown, deps.clock.now()),
  };
}

/** The page's written incidents (open ones on top, the history's first page, the archive's months) and their impact by entity id. */
async function writtenOf(
  deps: PublicViewDeps,
  page: StatusPageRecord,
  shown: { id: string; name: string }[],
): Promise<{ view: PublicPage['written_incidents']; impact: Map<string, ImpactLevel> }> {
  const ref = { tenantId: page.tenant_id, slug: page.slug, names: new Map(shown.map((e) => [e.id, e.name])) };
  const nowMs = deps.clock.now();
  const [open, history, archive] = await Promise.all([
    openWrittenIncidents(deps.table, ref),
    historyPage(deps.table, ref, nowMs),
    archiveMonths(deps.table, ref, page.created_at, nowMs),
  ]);
  return { view: { open: open.incidents, history, archive }, impact: open.impact };
}

/** Open incidents of the entities not up (one pointer read each) and the newest resolved ones. */
async function incidentsOf(
  deps: PublicViewDeps,
  tenantId: string,
  shown: { id: string; name: string; state: PublicState }[],
): Promise<NonNullable<PublicPage['incidents']>> {
  const names = new Map(shown.map((entity) => [entity.id, entity.name]));
  const troubled = shown.filter((entity) => entity.state === 'down' || entity.state === 'degraded');
  const [openRecords, resolvedRecords] = await Promise.all([
    // Its own open incident, or its root cause's it joined (one incident per root cause).
    Promise.all(troubled.map((entity) => coveringIncident(deps.table, tenantId, entity.id))),
    readRecentIncidents(deps.table, tenantId, {
      want: RESOLVED_SHOWN,
      scan: INCIDENTS_SCANNED,
      keep: (record) => record.state === 'resolved' && names.has(record.entity_id),
    }),
  ]);
  const open = openRecords.flatMap((record, i) =>
    record && record.state !== 'resolved'
      ? [{ entity_name: troubled[i]?.name ?? '', state: record.state, opened_at: record.opened_at }]
      : [],
  );
  open.sort((a, b) => b.opened_at.localeCompare(a.opened_at));
  const resolved = resolvedRecords.map((record) => {
    const resolvedAt = record.resolved_at ?? record.opened_at;
    return {
      entity_name: names.get(record.entity_id) ?? '',
      opened_at: record.opened_at,
      resolved_at: resolvedAt,
      duration_seconds: seconds(record.opened_at, resolvedAt),
    };
  });
  return { open, resolved };
}
