import * as z from 'zod';
import { childItems } from '../../store/child-items.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table } from '../../store/table.ts';

/**
 * Owner of `page_incident` (DECISIONS.md "Status-page communication (wave 5)"): a written incident
 * of one status page, its updates inside it (bounded, so the item stays far below 400 KB). It
 * lives in its tenant's partition under `PAGEINC#<slug>#<id>` (the owner's list, newest first,
 * drafts included); a published one is also in gsi1 under its page by `started_at` (the public
 * history and the month archives), and while open in gsi2 (the page's open incidents, drafts too).
 */

/** An update's status; each moves forward only (status-flow.ts). */
export const PAGE_INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type PageIncidentStatus = (typeof PAGE_INCIDENT_STATUSES)[number];

/** How hard an incident hits one of the page's entities. */
export const IMPACT_LEVELS = ['degraded_performance', 'partial_outage', 'major_outage'] as const;

/** The bounds of a page incident (request schemas check them; 400 beyond). */
export const PAGE_INCIDENT_LIMITS = {
  title: 200,
  body: 4000,
  updates: 25,
  linkedIncidents: 20,
  /** Open (unresolved) incidents one page may hold, drafts included. */
  openPerPage: 20,
} as const;

const updateSchema = z.object({
  id: z.string(),
  status: z.enum(PAGE_INCIDENT_STATUSES),
  body: z.string(),
  /** Stored and shown; telling subscribers is issue 54 item 3. */
  notify: z.boolean(),
  at: z.string(),
});

const draftedUpdateSchema = z.object({ status: z.literal('resolved'), body: z.string(), at: z.string() });

const pageIncidentSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  /** The page's slug. */
  page: z.string(),
  title: z.string(),
  status: z.enum(PAGE_INCIDENT_STATUSES),
  impact: z.array(z.object({ entity_id: z.string(), level: z.enum(IMPACT_LEVELS) })),
  updates: z.array(updateSchema),
  started_at: z.string(),
  resolved_at: z.string().nullable(),
  linked_incident_ids: z.array(z.string()),
  draft: z.boolean(),
  /** A draft made from the dependency graph (drafts/): the root and its change; absent on written ones. */
  drafted_from: z.object({ entity_id: z.string(), transition_id: z.string() }).nullable().optional(),
  /** The version the drafting wrote last while nobody else had written: a later version is a person's touch. */
  drafted_version: z.number().int().optional(),
  /** The all-clear's `resolved` update, drafted: publishing (PATCH draft false) appends it. */
  drafted_update: draftedUpdateSchema.nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type PageIncidentRecord = z.infer<typeof pageIncidentSchema>;

const PREFIX = 'PAGEINC#';
const pagePrefix = (slug: string) => `${PREFIX}${slug}#`;
const historyPk = (tenantId: string, slug: string) => `PAGEINC#${tenantId}#${slug}`;
const openPk = (tenantId: string, slug: string) => `PAGEINCOPEN#${tenantId}#${slug}`;
const byStart = (r: PageIncidentRecord) => `${r.started_at}#${r.id}`;

const pageIncident = defineItem({
  type: itemType('page_incident'),
  schema: pageIncidentSchema,
  key: (k: { tenant_id: string; page: string; id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${pagePrefix(k.page)}${k.id}`,
  }),
  gsi1: (r) => (r.draft ? undefined : { pk: historyPk(r.tenant_id, r.page), sk: byStart(r) }),
  // Drafts too: the per-page bound counts them; the public reads leave them out.
  gsi2: (r) => (r.status === 'resolved' ? undefined : { pk: openPk(r.tenant_id, r.page), sk: byStart(r) }),
  docKey: { tenant_id: '<tnt>', page: '<slug>', id: '<pin_id>' },
});

const children = childItems(pageIncident, {
  key: (tenantId, page, id) => ({ tenant_id: tenantId, page, id }),
  prefix: pagePrefix,
});
/** One incident of the tenant's page (consistent), or undefined. */
export const getPageIncident = children.get;
/** The put of a new incident (its id is fresh: an existing item fails the write). */
export const pageIncidentCreatedOp = children.createdOp;
/** The put of a changed incident over the version `readVersion` it was read at. */
export const pageIncidentReplacedOp = children.replacedOp;
/** The delete of one incident (`itemExists`). */
export const pageIncidentDeletedOp = children.deletedOp;
/** The deletes of up to `max` incidents of a page (a page's delete takes its incidents with it). */
export const pageIncidentsDeletedOps = children.parentDeletedOps;
/** The incident of a change-feed image, or undefined for another item type. */
export const pageIncidentOfImage = children.ofImage;

/** A page of the page's incidents as its owner lists them: newest created first, drafts included. */
export async function listPageIncidents(
  table: Table,
  tenantId: string,
  slug: string,
  page: { limit: number; before?: string | undefined },
): Promise<{ items: PageIncidentRecord[]; next: string | null }> {
  const prefix = pagePrefix(slug);
  const result = await table.query({
    pk: tenantPk(tenantId),
    sk: page.before
      ? { op: 'between', low: prefix, high: `${prefix}${page.before}` }
      : { op: 'beginsWith', prefix },
    direction: 'desc',
    limit: page.limit + 1,
    consistent: true,
  });
  const items = pageIncident.parseAll(result.items).filter((r) => r.id !== page.before);
  const shown = items.slice(0, page.limit);
  return { items: shown, next: items.length > page.limit ? (shown.at(-1)?.id ?? null) : null };
}

/** The unresolved incidents of a page, newest started first, drafts included (bounded per page). */
export async function readOpenPageIncidents(
  table: Table,
  tenantId: string,
  slug: string,
): Promise<PageIncidentRecord[]> {
  const result = await table.query({
    index: 'gsi2',
    pk: openPk(tenantId, slug),
    direction: 'desc',
    limit: PAGE_INCIDENT_LIMITS.openPerPage * 2,
  });
  return pageIncident.parseAll(result.items);
}

/**
 * Published incidents of a page that started in [from, to) (ISO times), newest first, up to
 * `limit`; `full` when the limit was reached (more may follow).
 */
export async function readPageHistory(
  table: Table,
  tenantId: string,
  slug: string,
  range: { from: string; to: string; limit: number },
): Promise<{ items: PageIncidentRecord[]; full: boolean }> {
  // An empty range (`before` older than the range) reads nothing: engines refuse low > high.
  if (range.to <= range.from) return { items: [], full: false };
  // `between` is inclusive, but no position equals `to`: each is `<started_at>#<id>`, after its time.
  const result = await table.query({
    index: 'gsi1',
    pk: historyPk(tenantId, slug),
    sk: { op: 'between', low: range.from, high: range.to },
    direction: 'desc',
    limit: range.limit,
  });
  const items = pageIncident.parseAll(result.items);
  return { items, full: items.length >= range.limit && result.cursor !== undefined };
}
