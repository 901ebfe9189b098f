import type { BlueprintService, EntityService } from '../../catalog/services.ts';
import { publicCheck } from '../../checks/records.ts';
import type { CheckReadService, CheckService } from '../../checks/services.ts';
import type { Principal } from '../../domain/principal.ts';
import type { IncidentService } from '../../incidents/incident-service.ts';
import { ValidationError } from '../../platform/errors.ts';
import { RESOURCE_MIME_TYPE, type ResourceAddress, resourceUri } from './uris.ts';

/** The services resources read through: the same ones the REST routes use, so the same rules hold. */
export interface ResourceDeps {
  blueprints: Pick<BlueprintService, 'list'>;
  entities: Pick<EntityService, 'get' | 'list'>;
  checks: Pick<CheckService, 'read' | 'page'>;
  checkReads: Pick<CheckReadService, 'results'>;
  incidents: Pick<IncidentService, 'get' | 'list'>;
  /** The owner's reads of status pages (lib/status-pages' page service, given by lib/app.ts). */
  statusPages: {
    list(tenantId: string): Promise<{ slug: string; title: string; visibility: string }[]>;
    get(tenantId: string, slug: string): Promise<object>;
  };
}

/** A listed resource (MCP `Resource`). */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
}

/** How many results a check resource carries: enough to see a trend, small enough for a model's context. */
const CHECK_RECENT_RESULTS = 20;

/** The JSON a resource reads as (the REST API's answer for the same thing); NotFoundError when the caller's tenant has none. */
export async function readResource(deps: ResourceDeps, caller: Principal, address: ResourceAddress) {
  const tenantId = caller.tenantId;
  switch (address.kind) {
    case 'entity':
      return deps.entities.get(tenantId, address.blueprint, address.slug);
    case 'check': {
      const check = await deps.checks.read(tenantId, address.id);
      const recent = await deps.checkReads.results(tenantId, address.id, { limit: CHECK_RECENT_RESULTS });
      return { ...publicCheck(check, caller), recent_results: recent.results };
    }
    case 'incident':
      return deps.incidents.get(caller, address.id);
    case 'status_page':
      return deps.statusPages.get(tenantId, address.slug);
  }
}

/** The sections resources/list pages through, in order; a cursor names one and its own cursor. */
export const LIST_SECTIONS = ['entities', 'checks', 'incidents', 'status-pages'] as const;
export type ListSection = (typeof LIST_SECTIONS)[number];

/** One page of one section: its resources and the section's own next cursor (null at its end). */
export async function listSection(
  deps: ResourceDeps,
  caller: Principal,
  section: ListSection,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ resources: ListedResource[]; next: string | null }> {
  const tenantId = caller.tenantId;
  const uriOf = resourceUri;
  switch (section) {
    case 'entities':
      return entityPage(deps, tenantId, page);
    case 'checks': {
      const read = await deps.checks.page(tenantId, page);
      const resources = read.checks.map((c) => ({
        uri: uriOf({ kind: 'check', id: c.id }),
        name: c.id,
        title: publicCheck(c, caller).name,
        description: `Check of ${c.entity_name}`,
        mimeType: RESOURCE_MIME_TYPE,
      }));
      return { resources, next: read.nextCursor };
    }
    case 'incidents': {
      const read = await deps.incidents.list(caller, page);
      const resources = read.incidents.map((i) => ({
        uri: uriOf({ kind: 'incident', id: i.id }),
        name: i.id,
        title: `${i.entity_name}: ${i.state}`,
        description: `Incident opened ${i.opened_at}`,
        mimeType: RESOURCE_MIME_TYPE,
      }));
      return { resources, next: read.next_cursor ?? null };
    }
    case 'status-pages': {
      // A tenant has a handful of pages (MAX_PAGES_PER_TENANT): one page of this section.
      const pages = await deps.statusPages.list(tenantId);
      const resources = pages.map((p) => ({
        uri: uriOf({ kind: 'status_page', slug: p.slug }),
        name: p.slug,
        title: p.title,
        description: `Status page (${p.visibility})`,
        mimeType: RESOURCE_MIME_TYPE,
      }));
      return { resources, next: null };
    }
  }
}

/** An entities cursor: the blueprint it is in and how many of its entities (by slug) came before. */
const ENTITY_CURSOR = /^([a-z0-9][a-z0-9-]{0,62})~(\d{1,6})$/;

/** The tenant's entities blueprint by blueprint (both by slug), `limit` from the cursor on. */
async function entityPage(
  deps: ResourceDeps,
  tenantId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<{ resources: ListedResource[]; next: string | null }> {
  const at = page.cursor === undefined ? undefined : ENTITY_CURSOR.exec(page.cursor);
  if (at === null) throw new ValidationError('invalid cursor');
  const blueprints = (await deps.blueprints.list(tenantId)).map((bp) => bp.slug).sort();
  const resources: ListedResource[] = [];
  let index = at ? blueprints.findIndex((slug) => slug >= (at[1] ?? '')) : 0;
  let offset = at && blueprints[index] === at[1] ? Number(at[2]) : 0;
  while (index >= 0 && index < blueprints.length) {
    const blueprint = blueprints[index] ?? '';
    const entities = (await deps.entities.list(tenantId, blueprint)).sort((a, b) =>
      a.slug < b.slug ? -1 : 1,
    );
    const taken = entities.slice(offset, offset + page.limit - resources.length);
    for (const e of taken)
      resources.push({
        uri: resourceUri({ kind: 'entity', blueprint, slug: e.slug }),
        name: `${blueprint}/${e.slug}`,
        title: e.name,
        description: `Entity, ${e.state}`,
        mimeType: RESOURCE_MIME_TYPE,
      });
    offset += taken.length;
    if (resources.length >= page.limit)
      return {
        resources,
        next: offset < entities.length ? `${blueprint}~${offset}` : nextBlueprint(blueprints, index),
      };
    index += 1;
    offset = 0;
  }
  return { resources, next: null };
}

const nextBlueprint = (blueprints: string[], index: number) => {
  const next = blueprints[index + 1];
  return next === undefined ? null : `${next}~0`;
};
