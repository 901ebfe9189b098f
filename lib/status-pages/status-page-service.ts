import { entityNamer } from '../catalog/entity-names.ts';
import { requireTenantEntities } from '../catalog/entity-store.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError } from '../platform/errors.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import type { PageCreateBody, PageReplaceBody } from './request-schemas.ts';
import { ownerView, type PublicStatusPageRecord } from './responses.ts';
import {
  getStatusPage,
  listStatusPages,
  MAX_PAGES_PER_TENANT,
  pageCreatedOps,
  pageDeletedOps,
  pageReplacedOp,
  type StatusPageRecord,
} from './status-page-items.ts';

export interface StatusPageServiceDeps {
  table: Table;
  clock: Clock;
}

/** The owner's side of public status pages: CRUD under /v1/status-pages (members write, read-only keys read). */
export function createStatusPageService(deps: StatusPageServiceDeps) {
  const { table, clock } = deps;

  const require = async (tenantId: string, slug: string) => {
    const page = await getStatusPage(table, tenantId, slug);
    if (!page) throw new NotFoundError('status page');
    return page;
  };

  /** The pages as their owner reads them, their entities named by one batch read for them all. */
  const views = async (tenantId: string, pages: StatusPageRecord[]): Promise<PublicStatusPageRecord[]> => {
    const name = await entityNamer(
      table,
      tenantId,
      pages.flatMap((p) => p.entity_ids),
    );
    return pages.map((p) => ownerView(p, name(p.entity_ids)));
  };
  const view = async (page: StatusPageRecord): Promise<PublicStatusPageRecord> =>
    (await views(page.tenant_id, [page]))[0] as PublicStatusPageRecord;

  const fields = (body: PageReplaceBody) => ({
    title: body.title,
    description: body.description ? body.description : null,
    entity_ids: [...new Set(body.entity_ids)],
    show_incidents: body.show_incidents,
  });

  return {
    async list(tenantId: string): Promise<PublicStatusPageRecord[]> {
      return views(tenantId, await listStatusPages(table, tenantId));
    },

    async get(tenantId: string, slug: string): Promise<PublicStatusPageRecord> {
      return view(await require(tenantId, slug));
    },

    /** A slug any tenant holds already is 409 CONFLICT (the public URL names no tenant). */
    async create(tenantId: string, body: PageCreateBody): Promise<PublicStatusPageRecord> {
      await requireTenantEntities(table, tenantId, body.entity_ids);
      // A soft bound: concurrent creates may pass it by a few.
      if ((await listStatusPages(table, tenantId)).length >= MAX_PAGES_PER_TENANT)
        throw new LimitExceededError(`a tenant keeps at most ${MAX_PAGES_PER_TENANT} status pages`);
      const now = isoTime(clock.now());
      const record: StatusPageRecord = {
        slug: body.slug,
        tenant_id: tenantId,
        ...fields(body),
        created_at: now,
        updated_at: now,
        version: 1,
      };
      try {
        await table.transact(pageCreatedOps(record));
      } catch (error) {
        if (error instanceof ConditionFailedError)
          throw new ConflictError(`the status page slug ${body.slug} is taken`);
        throw error;
      }
      return view(record);
    },

    /** Replaces the page's fields; a concurrent change first is 409 CONFLICT. */
    async replace(tenantId: string, slug: string, body: PageReplaceBody): Promise<PublicStatusPageRecord> {
      const current = await require(tenantId, slug);
      await requireTenantEntities(table, tenantId, body.entity_ids);
      const record: StatusPageRecord = {
        ...current,
        ...fields(body),
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await replaceHeld(table, [pageReplacedOp(record, current.version)], {
        name: 'status page',
        exists: async () => (await getStatusPage(table, tenantId, slug)) !== undefined,
      });
      return view(record);
    },

    async remove(tenantId: string, slug: string): Promise<void> {
      await deleteHeld(table, pageDeletedOps(tenantId, slug), 'status page');
    },
  };
}

export type StatusPageService = ReturnType<typeof createStatusPageService>;
