import * as z from 'zod';
import type { ToolKitDeps } from '../catalog/entities.ts';
import { entityNaming, knownEntities, requiredEntity } from '../catalog/entities.ts';
import { issueSentence } from '../http/requests.ts';
import { ValidationError } from '../platform/errors.ts';
import type { BuiltinTool } from '../platform/mcp-tool.ts';
import { toolResult } from '../platform/tool-answers.ts';
import {
  IMPACT_LEVELS,
  PAGE_INCIDENT_STATUSES,
  type PageIncidentService,
  pageIncidentCreateBody,
  pageIncidentUpdateBody,
} from './page-incidents.ts';

/**
 * Written incidents on a status page for agents (issue 54 item 1): write one, and add updates as
 * it moves on (the same service and validation as POST /v1/status-pages/{slug}/incidents and its
 * /updates). An update with `notify` is told to the page's subscribers (e-mail, webhooks) by the
 * notice jobs, as the API's is (docs/status-pages.md "Subscribers").
 */

const WRITES = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** What they take: a status page's written incidents, bound by the status pages' mount. */
export type PageIncidentToolDeps = ToolKitDeps & {
  pageIncidents: Pick<PageIncidentService, 'create' | 'addUpdate' | 'get' | 'list'>;
};

const page = { page: z.string().min(1).max(200) };
const createArgs = pageIncidentCreateBody.extend(page);
const updateArgs = pageIncidentUpdateBody.extend({ ...page, incident_id: z.string().min(1).max(64) });

function parsed<S extends z.ZodType>(schema: S, args: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(args, { error: issueSentence });
  if (result.success) return result.data;
  throw new ValidationError(
    `invalid ${what}`,
    result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  );
}

/**
 * The impact list with each entity as its id: an item naming it by blueprint and slug is resolved
 * (./entity-ref.ts); an id stays as given, for the page service to check the page shows it.
 */
async function impactByIds(
  deps: Pick<ToolKitDeps, 'entityStore'>,
  tenantId: string,
  impact: unknown,
): Promise<unknown[] | undefined> {
  if (!Array.isArray(impact)) return undefined;
  return Promise.all(
    impact.map(async (item: Record<string, unknown>) => {
      if (item?.blueprint_slug === undefined && item?.entity_slug === undefined) return item;
      const { blueprint_slug: _b, entity_slug: _e, ...rest } = item;
      return { ...rest, entity_id: (await requiredEntity(deps, tenantId, item)).id };
    }),
  );
}

/** create_page_incident: an incident on a status page, with its first update. */
export const createPageIncident: BuiltinTool<PageIncidentToolDeps> = {
  name: 'create_page_incident',
  offer: {
    toolset: 'status-page-ops',
    order: 10,
    version: '1.1.0',
    description:
      'Write an incident on a status page (shown at /p/{page} unless a draft): title, impact per entity the page shows, and its first update (status, Markdown body, notify); a past started_at and resolved_at backfill one for the record. notify: true tells the page’s subscribers.',
    inputSchema: {
      type: 'object',
      properties: {
        page: { type: 'string', description: 'The status page’s slug' },
        title: { type: 'string', minLength: 1, maxLength: 200 },
        status: { type: 'string', enum: [...PAGE_INCIDENT_STATUSES], default: 'investigating' },
        body: {
          type: 'string',
          minLength: 1,
          maxLength: 4000,
          description: 'Markdown: paragraphs, emphasis, lists, links, code',
        },
        notify: { type: 'boolean', default: false },
        impact: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            properties: {
              ...entityNaming('An entity the page shows'),
              level: { type: 'string', enum: [...IMPACT_LEVELS] },
            },
            required: ['level'],
            additionalProperties: false,
          },
        },
        started_at: { type: 'string', description: 'ISO 8601 UTC, not in the future; now when absent' },
        resolved_at: { type: 'string', description: 'A backfilled incident’s end (status resolved)' },
        linked_incident_ids: {
          type: 'array',
          maxItems: 20,
          items: { type: 'string' },
          description: 'Automatic incidents (inc_…) this one explains',
        },
        draft: { type: 'boolean', default: false, description: 'A draft is not shown on the page' },
      },
      required: ['page', 'title', 'body'],
      additionalProperties: false,
    },
  },
  // The page (404 when the tenant has no page of that slug) and the impact's entities (400, each
  // at impact.<i>.entity_id), before the write is confirmed.
  references: async (deps, caller, args) => {
    if (typeof args.page === 'string')
      await deps.pageIncidents.list(caller.tenantId, args.page, { limit: 1 });
    const impact = (await impactByIds(deps, caller.tenantId, args.impact)) ?? [];
    const ids = impact.map((i) => {
      const id = (i as { entity_id?: unknown })?.entity_id;
      return typeof id === 'string' ? id : '';
    });
    await knownEntities(deps, caller.tenantId, ids, (i) => `impact.${i}.entity_id`);
  },
  annotations: { title: 'Write a status-page incident', ...WRITES },
  handler: async (deps, caller, args) => {
    const impact = await impactByIds(deps, caller.tenantId, args.impact);
    const { page: slug, ...body } = parsed(
      createArgs,
      { ...args, ...(impact ? { impact } : {}) },
      'page incident',
    );
    const incident = await deps.pageIncidents.create(caller.tenantId, slug, body);
    const shown = incident.draft ? 'saved as a draft (not shown)' : `shown on /p/${slug}`;
    return toolResult(
      `Wrote incident "${incident.title}" (${incident.status}) on status page ${slug}, ${shown}.`,
      {
        incident,
      },
    );
  },
};

/** update_page_incident: a new update (status forward only, Markdown body, notify). */
export const updatePageIncident: BuiltinTool<PageIncidentToolDeps> = {
  name: 'update_page_incident',
  offer: {
    toolset: 'status-page-ops',
    order: 20,
    version: '1.1.0',
    description:
      'Add an update to a status-page incident: the status moves forward only (investigating, identified, monitoring, resolved; resolved ends it), with a Markdown body and notify (true tells the page’s subscribers).',
    inputSchema: {
      type: 'object',
      properties: {
        page: { type: 'string', description: 'The status page’s slug' },
        incident_id: { type: 'string', description: 'The page incident (pin_…)' },
        status: { type: 'string', enum: [...PAGE_INCIDENT_STATUSES] },
        body: { type: 'string', minLength: 1, maxLength: 4000, description: 'Markdown' },
        notify: { type: 'boolean', default: false },
      },
      required: ['page', 'incident_id', 'status', 'body'],
      additionalProperties: false,
    },
  },
  references: async (deps, caller, args) => {
    const { page: slug, incident_id: id } = args;
    if (typeof slug === 'string' && typeof id === 'string')
      await deps.pageIncidents.get(caller.tenantId, slug, id);
  },
  annotations: { title: 'Update a status-page incident', ...WRITES },
  handler: async (deps, caller, args) => {
    const { page: slug, incident_id, ...body } = parsed(updateArgs, args, 'page incident update');
    const incident = await deps.pageIncidents.addUpdate(caller.tenantId, slug, incident_id, body);
    const notify = body.notify ? ' (marked to notify subscribers)' : '';
    return toolResult(
      `Updated incident "${incident.title}" on status page ${slug}: ${incident.status}${notify}.`,
      {
        incident,
      },
    );
  },
};
