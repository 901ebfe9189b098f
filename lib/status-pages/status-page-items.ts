import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of `status_page` and `status_page_slug` (DECISIONS.md "Operations features (wave 3)").
 * A page is an item of its tenant's partition under `STATUSPAGE#<slug>`; its slug is globally
 * unique (the public URL `/p/{slug}` names no tenant), so a slug item `PAGESLUG#<slug>` outside
 * every tenant holds `{tenant_id}`, written and deleted with the page in one transaction, as
 * `KEYHASH#` items are with keys. The public routes read the slug item, then the page.
 */

/** Pages one tenant may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_PAGES_PER_TENANT = 20;

/** The sizes a page's fields are bounded by (request-schemas.ts checks them). */
export const PAGE_LIMITS = { entityIds: 100, title: 100, description: 1000 } as const;

const statusPageSchema = z.object({
  slug: z.string(),
  tenant_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** In the order the owner chose: the public page lists them so. */
  entity_ids: z.array(z.string()),
  show_incidents: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: an update holds only over the version it read. */
  version: z.number().int(),
});
export type StatusPageRecord = z.infer<typeof statusPageSchema>;

const PAGE_PREFIX = 'STATUSPAGE#';

const statusPage = defineItem({
  type: itemType('status_page'),
  schema: statusPageSchema,
  key: (k: { tenant_id: string; slug: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${PAGE_PREFIX}${k.slug}`,
  }),
  docKey: { tenant_id: '<tnt>', slug: '<slug>' },
});

const pageSlug = defineItem({
  type: itemType('status_page_slug'),
  schema: z.object({ tenant_id: z.string() }),
  key: (k: { slug: string }) => ({ pk: `PAGESLUG#${k.slug}`, sk: '#PAGESLUG' }),
  keyOf: null,
  docKey: { slug: '<slug>' },
});

/** One page of the tenant (consistent), or undefined. */
export function getStatusPage(
  table: Table,
  tenantId: string,
  slug: string,
): Promise<StatusPageRecord | undefined> {
  return statusPage.get(table, { tenant_id: tenantId, slug }, { consistent: true });
}

/**
 * The page a public URL names, whoever owns it, or undefined (eventually consistent: the public
 * routes are cached for 30 s anyway, and a read that skips the leader costs half).
 */
export async function findPublicPage(table: Table, slug: string): Promise<StatusPageRecord | undefined> {
  const owner = await pageSlug.get(table, { slug });
  if (!owner) return undefined;
  const page = await statusPage.get(table, { tenant_id: owner.tenant_id, slug });
  return page?.tenant_id === owner.tenant_id ? page : undefined;
}

/** Every page of the tenant, by slug (consistent); bounded by the per-tenant limit. */
export async function listStatusPages(table: Table, tenantId: string): Promise<StatusPageRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: PAGE_PREFIX },
        consistent: true,
        cursor,
      }),
    MAX_PAGES_PER_TENANT * 2,
  );
  return statusPage.parseAll(items);
}

/** The puts of a new page and its slug claim; either existing (any tenant's) fails the transaction. */
export function pageCreatedOps(record: StatusPageRecord): WriteOp[] {
  return [
    pageSlug.putAt({ slug: record.slug }, { tenant_id: record.tenant_id }, { kind: 'itemNotExists' }),
    statusPage.put(record, { kind: 'itemNotExists' }),
  ];
}

/** The put of a changed page over the version `readVersion` it was read at (the slug never changes). */
export function pageReplacedOp(record: StatusPageRecord, readVersion: number): WriteOp {
  return statusPage.put(record, { kind: 'compare', attr: 'version', op: '=', value: readVersion });
}

/** The deletes of a page (`itemExists`) and its slug claim, which frees the slug for anyone. */
export function pageDeletedOps(tenantId: string, slug: string): WriteOp[] {
  return [
    statusPage.delete({ tenant_id: tenantId, slug }, { kind: 'itemExists' }),
    pageSlug.delete({ slug }),
  ];
}
