import { randomBytes } from 'node:crypto';
import { entityNamer, requireTenantEntities } from '../../catalog/entities.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { deleteHeld, replaceHeld } from '../../store/held-writes.ts';
import { ConditionFailedError, MAX_TRANSACTION_OPS, type Table } from '../../store/table.ts';
import { type DomainRules, pageDomainAfter } from '../domains/domain-rules.ts';
import { pageIncidentsDeletedOps } from '../items/page-incident-items.ts';
import type { PageCreateBody, PageReplaceBody } from '../items/request-schemas.ts';
import {
  getDomainClaim,
  getStatusPage,
  listStatusPages,
  MAX_PAGES_PER_TENANT,
  pageCreatedOps,
  pageDeletedOps,
  pageReplacedOps,
  type StatusPageRecord,
} from '../items/status-page-items.ts';
import { subscribersDeletedOps } from '../items/subscriber-items.ts';
import { ownerView, type PublicStatusPageRecord } from './responses.ts';

export interface StatusPageServiceDeps {
  table: Table;
  clock: Clock;
  /** A password page's password as people's are hashed (given by the composition root). */
  hashPassword: (password: string) => Promise<string>;
  /** Whether the tenant has SSO set up: a page is `sso` only then. */
  ssoConfigured: (tenantId: string) => Promise<boolean>;
  /** Which custom domains a page may take (the deployment's list, its own hosts). */
  domains: DomainRules;
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
    auto_publish_drafts_after_minutes: body.auto_publish_drafts_after_minutes,
  });

  const newAccessKey = () => randomBytes(32).toString('base64url');

  /**
   * The page's privacy after a write: a password page needs a password (given now, or kept from
   * before); a change of visibility or password makes a new access key, which signs out every
   * visitor holding a cookie of the old one. A public or SSO page keeps no password; an SSO page
   * needs the tenant's SSO set up, and has a key too (its readers' cookie on its custom domain).
   */
  const privacy = async (
    tenantId: string,
    body: PageReplaceBody,
    current?: StatusPageRecord,
  ): Promise<Pick<StatusPageRecord, 'visibility' | 'password_hash' | 'access_key'>> => {
    const visibility = body.visibility ?? current?.visibility ?? 'public';
    if (visibility === 'public' || visibility === 'sso') {
      if (body.password !== undefined)
        throw new ValidationError(`a ${visibility} page has no password`, [
          { path: 'password', message: 'Set visibility to password to use a password.' },
        ]);
      if (visibility === 'sso' && !(await deps.ssoConfigured(tenantId)))
        throw new ValidationError('an SSO page needs the team’s SSO', [
          {
            path: 'visibility',
            message:
              'Set up SSO first (PUT /v1/settings/sso): only people signed in through it read the page.',
          },
        ]);
      if (visibility === 'public') return { visibility, password_hash: null, access_key: null };
      // An SSO page signs its readers' cookies on its custom domain with its key: kept while it
      // stays SSO, made for a page made SSO now or before it had one (a page of an older version).
      const kept = current?.visibility === 'sso' ? current.access_key : null;
      return { visibility, password_hash: null, access_key: kept ?? newAccessKey() };
    }
    if (body.password === undefined) {
      if (current?.visibility === 'password' && current.password_hash !== null) {
        const { password_hash, access_key } = current;
        return { visibility, password_hash, access_key };
      }
      throw new ValidationError('a password page needs a password', [
        { path: 'password', message: 'This field is required when visibility is password.' },
      ]);
    }
    return {
      visibility,
      password_hash: await deps.hashPassword(body.password),
      access_key: newAccessKey(),
    };
  };

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
      const secrets = await privacy(tenantId, body);
      const page = { tenant_id: tenantId, slug: body.slug, visibility: secrets.visibility };
      const record: StatusPageRecord = {
        slug: body.slug,
        tenant_id: tenantId,
        ...fields(body),
        ...secrets,
        domain: await pageDomainAfter(table, deps.domains, page, body.domain, null),
        created_at: now,
        updated_at: now,
        version: 1,
      };
      try {
        await table.transact(pageCreatedOps(record));
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // The slug's claim or the domain's: whichever another page holds now.
        const domainTaken =
          record.domain !== null && (await getDomainClaim(table, record.domain)) !== undefined;
        throw new ConflictError(
          domainTaken
            ? `the domain ${record.domain} is taken by another status page`
            : `the status page slug ${body.slug} is taken`,
        );
      }
      return view(record);
    },

    /** Replaces the page's fields; a concurrent change first, or a domain another page holds, is 409 CONFLICT. */
    async replace(tenantId: string, slug: string, body: PageReplaceBody): Promise<PublicStatusPageRecord> {
      const current = await require(tenantId, slug);
      await requireTenantEntities(table, tenantId, body.entity_ids);
      const secrets = await privacy(tenantId, body, current);
      const record: StatusPageRecord = {
        ...current,
        ...fields(body),
        ...secrets,
        domain: await pageDomainAfter(
          table,
          deps.domains,
          { ...current, visibility: secrets.visibility },
          body.domain,
          current.domain,
        ),
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await replaceHeld(table, pageReplacedOps(record, current), {
        name: 'status page',
        exists: async () => (await getStatusPage(table, tenantId, slug)) !== undefined,
      });
      return view(record);
    },

    /**
     * Deletes the page's written incidents and subscribers first (so a page made again under the
     * slug starts empty), then the page and its claims (its slug and domain are free again).
     */
    async remove(tenantId: string, slug: string): Promise<void> {
      const page = await require(tenantId, slug);
      for (const deletes of [pageIncidentsDeletedOps, subscribersDeletedOps])
        for (;;) {
          const ops = await deletes(table, tenantId, slug, MAX_TRANSACTION_OPS);
          if (ops.length === 0) break;
          await table.transact(ops);
        }
      await deleteHeld(table, pageDeletedOps(page), 'status page');
    },
  };
}

export type StatusPageService = ReturnType<typeof createStatusPageService>;
