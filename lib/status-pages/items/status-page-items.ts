import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `status_page`, `status_page_slug` and `status_page_domain` (DECISIONS.md "Operations
 * features (wave 3)", "Status-page communication (wave 5)"). A page is an item of its tenant's
 * partition under `STATUSPAGE#<slug>`; its slug is globally unique (the public URL `/p/{slug}`
 * names no tenant), so a slug item `PAGESLUG#<slug>` outside every tenant holds `{tenant_id}`,
 * written and deleted with the page in one transaction, as `KEYHASH#` items are with keys. The
 * public routes read the slug item, then the page. A page's custom domain is claimed the same way:
 * `PAGEDOMAIN#<domain>` holds `{tenant_id, slug}`, put with the page that takes the domain and
 * deleted with the page that drops it (or is deleted), so one domain names one page of one tenant.
 */

/** Pages one tenant may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_PAGES_PER_TENANT = 20;

/** The sizes a page's fields are bounded by (request-schemas.ts checks them). */
export const PAGE_LIMITS = {
  entityIds: 100,
  title: 100,
  description: 1000,
  autoPublishMinutes: 1440,
  password: { min: 8, max: 200 },
} as const;

const statusPageSchema = z.object({
  slug: z.string(),
  tenant_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** In the order the owner chose: the public page lists them so. */
  entity_ids: z.array(z.string()),
  show_incidents: z.boolean(),
  /** Drafts from the dependency graph nobody touched are published after this many minutes; null: never (absent on old pages). */
  auto_publish_drafts_after_minutes: z.number().int().nullable().optional(),
  /** Who may read the public routes (a page stored before privacy existed is public). */
  visibility: z.enum(['public', 'password', 'sso']).default('public'),
  /** The password's scrypt hash (lib/people/password.ts) while `visibility` is password; never returned. */
  password_hash: z.string().nullable().default(null),
  /**
   * The key its access cookies are signed with (random, never returned): a new one with each change
   * of visibility or password, so every cookie given before stops opening the page.
   */
  access_key: z.string().nullable().default(null),
  /** The custom domain the page also answers on (its claim is a `status_page_domain` item); null: none. */
  domain: z.string().nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: an update holds only over the version it read. */
  version: z.number().int(),
});
export type StatusPageRecord = z.infer<typeof statusPageSchema>;

/** Where a page is found: its slug, and its custom domain (null: none). */
export interface PageAddress {
  slug: string;
  domain: string | null;
}

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

const pageDomain = defineItem({
  type: itemType('status_page_domain'),
  schema: z.object({ tenant_id: z.string(), slug: z.string() }),
  key: (k: { domain: string }) => ({ pk: `PAGEDOMAIN#${k.domain}`, sk: '#PAGEDOMAIN' }),
  keyOf: null,
  docKey: { domain: '<domain>' },
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

/** Who holds a custom domain (consistent: a claim is checked before it is written), or undefined. */
export function getDomainClaim(
  table: Table,
  domain: string,
): Promise<{ tenant_id: string; slug: string } | undefined> {
  return pageDomain.get(table, { domain }, { consistent: true });
}

/**
 * The slug of the page a custom domain serves, or undefined: its claim, checked against the page
 * (eventually consistent, as findPublicPage; the answer is cached 30 s).
 */
export async function findDomainPage(table: Table, domain: string): Promise<string | undefined> {
  const claim = await pageDomain.get(table, { domain });
  if (!claim) return undefined;
  const page = await statusPage.get(table, { tenant_id: claim.tenant_id, slug: claim.slug });
  return page?.domain === domain ? page.slug : undefined;
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

/** The put of a page's domain claim: a domain any page holds fails the transaction. */
const domainClaimedOp = (record: StatusPageRecord, domain: string): WriteOp =>
  pageDomain.putAt({ domain }, { tenant_id: record.tenant_id, slug: record.slug }, { kind: 'itemNotExists' });

/** The puts of a new page, its slug claim and its domain's; any of them existing (any tenant's) fails the transaction. */
export function pageCreatedOps(record: StatusPageRecord): WriteOp[] {
  return [
    pageSlug.putAt({ slug: record.slug }, { tenant_id: record.tenant_id }, { kind: 'itemNotExists' }),
    ...(record.domain === null ? [] : [domainClaimedOp(record, record.domain)]),
    statusPage.put(record, { kind: 'itemNotExists' }),
  ];
}

/**
 * The put of a changed page over the version `readVersion` it was read at (the slug never changes),
 * with its domain claims when the domain changes: the old one deleted (the version condition proves
 * the page held it), the new one claimed (held by any page: the transaction fails).
 */
export function pageReplacedOps(
  record: StatusPageRecord,
  read: { version: number; domain: string | null },
): WriteOp[] {
  const moved = record.domain !== read.domain;
  return [
    statusPage.put(record, { kind: 'compare', attr: 'version', op: '=', value: read.version }),
    ...(moved && read.domain !== null ? [pageDomain.delete({ domain: read.domain })] : []),
    ...(moved && record.domain !== null ? [domainClaimedOp(record, record.domain)] : []),
  ];
}

/** The deletes of a page (`itemExists`), its slug claim and its domain's, which frees both for anyone. */
export function pageDeletedOps(page: PageAddress & { tenant_id: string }): WriteOp[] {
  return [
    statusPage.delete({ tenant_id: page.tenant_id, slug: page.slug }, { kind: 'itemExists' }),
    pageSlug.delete({ slug: page.slug }),
    ...(page.domain === null ? [] : [pageDomain.delete({ domain: page.domain })]),
  ];
}
