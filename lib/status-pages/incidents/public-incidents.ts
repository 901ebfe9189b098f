import * as z from 'zod';
import type { Table } from '../../store/table.ts';
import {
  IMPACT_LEVELS,
  PAGE_INCIDENT_STATUSES,
  type PageIncidentRecord,
  readOpenPageIncidents,
  readPageHistory,
} from '../items/page-incident-items.ts';

/**
 * The written incidents a public page shows (issue 54 item 1), built field by field from an
 * allow-list as the rest of the public view is: title, status, impact by entity name, times and
 * updates (status, Markdown, time). Drafts, ids, links to automatic incidents and `notify` stay out.
 */

/** History shown: the last 90 days, this many to a page. */
export const HISTORY_DAYS = 90;
const HISTORY_PAGE = 10;
/** One month's archive: at most this many to a page. */
const ARCHIVE_PAGE = 50;
const DAY_MS = 86_400_000;

export const writtenIncidentSchema = z.strictObject({
  title: z.string(),
  status: z.enum(PAGE_INCIDENT_STATUSES),
  impact: z.array(z.strictObject({ entity_name: z.string(), level: z.enum(IMPACT_LEVELS) })),
  started_at: z.string(),
  resolved_at: z.string().nullable(),
  updates: z
    .array(z.strictObject({ status: z.enum(PAGE_INCIDENT_STATUSES), body: z.string(), at: z.string() }))
    .meta({ description: 'Newest first; body is Markdown (the HTML page renders its safe subset)' }),
});
export type WrittenIncident = z.infer<typeof writtenIncidentSchema>;

export const historyPageSchema = z.strictObject({
  incidents: z.array(writtenIncidentSchema),
  older: z
    .string()
    .nullable()
    .meta({ description: 'The `before` of the next page (a start time), null at the end' }),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** How hard an open incident hits one entity, mildest first. */
export type ImpactLevel = (typeof IMPACT_LEVELS)[number];

/** Entity names by id: only the page's shown entities are named (impact on another is left out). */
type Names = ReadonlyMap<string, string>;

function publicIncident(record: PageIncidentRecord, names: Names): WrittenIncident {
  return {
    title: record.title,
    status: record.status,
    impact: record.impact.flatMap(({ entity_id, level }) => {
      const name = names.get(entity_id);
      return name === undefined ? [] : [{ entity_name: name, level }];
    }),
    started_at: record.started_at,
    resolved_at: record.resolved_at,
    updates: record.updates.map(({ status, body, at }) => ({ status, body, at })).reverse(),
  };
}

interface PageRef {
  tenantId: string;
  slug: string;
  names: Names;
}

/** The page's published open incidents, and what they do to its entities. */
export interface OpenWritten {
  /** Newest started first. */
  incidents: WrittenIncident[];
  /** Entity id -> the worst impact an open incident declares on it (entities without one are absent). */
  impact: Map<string, ImpactLevel>;
}

/** The page's published open incidents, newest started first, and the worst impact of each entity. */
export async function openWrittenIncidents(table: Table, page: PageRef): Promise<OpenWritten> {
  const records = (await readOpenPageIncidents(table, page.tenantId, page.slug)).filter((r) => !r.draft);
  const impact = new Map<string, ImpactLevel>();
  for (const { entity_id, level } of records.flatMap((r) => r.impact)) {
    const known = impact.get(entity_id);
    if (known === undefined || IMPACT_LEVELS.indexOf(level) > IMPACT_LEVELS.indexOf(known))
      impact.set(entity_id, level);
  }
  return { incidents: records.map((r) => publicIncident(r, page.names)), impact };
}

/**
 * Published incidents that started in [from, to) before `before` (a start time), newest first; a
 * page ends only after every incident of its last start time, so none is skipped by the next.
 */
async function readRange(
  table: Table,
  page: PageRef,
  range: { from: string; to: string; before?: string | undefined; limit: number },
): Promise<HistoryPage> {
  const to = range.before !== undefined && range.before < range.to ? range.before : range.to;
  const read = await readPageHistory(table, page.tenantId, page.slug, {
    from: range.from,
    to,
    limit: range.limit + 20,
  });
  const cut = read.items[range.limit - 1]?.started_at;
  const shown =
    cut === undefined ? read.items : read.items.filter((r, i) => i < range.limit || r.started_at === cut);
  const more = shown.length < read.items.length || read.full;
  return {
    incidents: shown.map((r) => publicIncident(r, page.names)),
    older: more ? (shown.at(-1)?.started_at ?? null) : null,
  };
}

/** The start times the history shows at `nowMs`: the last HISTORY_DAYS days, now included (page and feeds). */
export function historyWindow(nowMs: number): { from: string; to: string } {
  return {
    from: new Date(nowMs - HISTORY_DAYS * DAY_MS).toISOString(),
    to: new Date(nowMs + 1).toISOString(),
  };
}

/** The resolved and open incidents of the last 90 days, newest first, a page at a time. */
export function historyPage(
  table: Table,
  page: PageRef,
  nowMs: number,
  before?: string | undefined,
): Promise<HistoryPage> {
  return readRange(table, page, { ...historyWindow(nowMs), before, limit: HISTORY_PAGE });
}

/** The incidents that started in one calendar month (UTC, `yyyy-mm`), newest first. */
export function monthArchive(
  table: Table,
  page: PageRef,
  month: string,
  before?: string | undefined,
  limit = ARCHIVE_PAGE,
): Promise<HistoryPage> {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return readRange(table, page, {
    from: new Date(Date.UTC(year, mon - 1, 1)).toISOString(),
    to: new Date(Date.UTC(year, mon, 1)).toISOString(),
    before,
    limit,
  });
}

/** `yyyy-mm` of the months the last 90 days touch at `nowMs`, newest first. */
function recentMonths(nowMs: number): string[] {
  const months = new Set<string>();
  for (let day = 0; day <= HISTORY_DAYS; day += 1)
    months.add(new Date(nowMs - day * DAY_MS).toISOString().slice(0, 7));
  return [...months];
}

/**
 * The months whose archives the page links, newest first: those the last 90 days touch, from the
 * month the page was created (`createdAt`) on; an earlier one only when a published incident
 * started in it (one backfilled), so no empty month from before the page is listed.
 */
export async function archiveMonths(
  table: Table,
  page: PageRef,
  createdAt: string,
  nowMs: number,
): Promise<string[]> {
  const created = createdAt.slice(0, 7);
  const months = recentMonths(nowMs);
  const kept = await Promise.all(
    months.map(
      async (month) =>
        month >= created || (await monthArchive(table, page, month, undefined, 1)).incidents.length > 0,
    ),
  );
  return months.filter((_, i) => kept[i]);
}
