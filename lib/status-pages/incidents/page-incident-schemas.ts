import * as z from 'zod';
import { idSchema, queryInteger, timestampSchema } from '../../http/route-schemas.ts';
import { pick } from '../../platform/pick.ts';
import {
  IMPACT_LEVELS,
  PAGE_INCIDENT_LIMITS,
  PAGE_INCIDENT_STATUSES,
  type PageIncidentRecord,
} from '../items/page-incident-items.ts';
import { pageParams } from '../items/request-schemas.ts';

/** Request and response shapes of a status page's written incidents; unknown fields are 400. */

const pastTime = z.iso
  .datetime()
  .meta({ description: 'ISO 8601 UTC (Z), not in the future (a backfilled incident names both times)' });

const title = z.string().regex(/\S/, 'This field is required.').trim().min(1).max(PAGE_INCIDENT_LIMITS.title);

const impact = z
  .array(
    z.strictObject({
      entity_id: idSchema('ent').meta({ description: 'An entity the page shows' }),
      level: z.enum(IMPACT_LEVELS),
    }),
  )
  .max(100)
  .meta({ description: 'Impact per component: entities the page shows, each once' });

const linked = z
  .array(idSchema('inc').meta({ description: 'An automatic incident of the tenant' }))
  .max(PAGE_INCIDENT_LIMITS.linkedIncidents);

const updateFields = {
  status: z.enum(PAGE_INCIDENT_STATUSES),
  body: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(PAGE_INCIDENT_LIMITS.body).meta({
    description:
      'Markdown (paragraphs, emphasis, lists, links, code; HTML is shown as text). Links get rel="nofollow noopener"',
  }),
  notify: z.boolean().default(false).meta({
    description:
      'Whether subscribers are to be told of this update (stored and shown; subscribers are not told yet)',
  }),
};

export const pageIncidentCreateBody = z.strictObject({
  title,
  status: updateFields.status.default('investigating'),
  body: updateFields.body.meta({ description: 'The first update’s Markdown body' }),
  notify: updateFields.notify,
  impact: impact.default([]),
  started_at: pastTime.optional().meta({ description: 'When it started: now when absent' }),
  resolved_at: pastTime
    .optional()
    .meta({ description: 'A backfilled incident’s end (status resolved); now when resolved without it' }),
  linked_incident_ids: linked.default([]),
  draft: z.boolean().default(false).meta({ description: 'A draft is not shown on the public page' }),
});
export type PageIncidentCreateBody = z.infer<typeof pageIncidentCreateBody>;

export const pageIncidentUpdateBody = z.strictObject(updateFields);
export type PageIncidentUpdateBody = z.infer<typeof pageIncidentUpdateBody>;

/** A body to preview (POST …/incidents/preview): the update body's own bound, so what previews can be posted. */
export const pageIncidentPreviewBody = z.strictObject({ body: updateFields.body });

export const pageIncidentPreviewSchema = z.strictObject({
  html: z.string().meta({
    description:
      'The body as the public page shows it: HTML from the page’s own renderer (no raw HTML, no script; links rel="nofollow noopener")',
  }),
});

/**
 * The largest preview request, in bytes: the body's 4,000 characters escaped as JSON at worst
 * (`\uXXXX`, 6 bytes each) and the envelope around them.
 */
export const PREVIEW_MAX_BODY_BYTES = 32 * 1024;

export const pageIncidentPatchBody = z.strictObject({
  title: title.optional(),
  impact: impact.optional(),
  linked_incident_ids: linked.optional(),
  draft: z.literal(false).optional().meta({
    description:
      'false publishes a draft (a published one stays so), and appends the drafted resolved update if one waits',
  }),
});
export type PageIncidentPatchBody = z.infer<typeof pageIncidentPatchBody>;

export const pageIncidentParams = pageParams.extend({ incident_id: idSchema('pin') });

export const pageIncidentsQuery = z.object({
  limit: queryInteger(1, 100)
    .default(20)
    .meta({ description: 'Page size: an integer from 1 to 100; default 20' }),
  cursor: idSchema('pin').optional().meta({ description: 'The next_cursor of the previous page' }),
  open: z.enum(['true', 'false']).optional().meta({
    description:
      '`true`: only the open (unresolved) ones, drafts included, newest started first, all in one answer (a page holds at most 20; next_cursor null); limit and cursor do not apply',
  }),
});

const updateView = z.strictObject({
  id: z.string(),
  status: z.enum(PAGE_INCIDENT_STATUSES),
  body: z.string().meta({ description: 'Markdown as written' }),
  notify: z.boolean(),
  at: timestampSchema,
});

export const pageIncidentSchema = z
  .strictObject({
    id: z.string(),
    page: z.string().meta({ description: 'The status page’s slug' }),
    title: z.string(),
    status: z.enum(PAGE_INCIDENT_STATUSES),
    impact: z.array(z.strictObject({ entity_id: z.string(), level: z.enum(IMPACT_LEVELS) })),
    updates: z.array(updateView).meta({ description: 'Oldest first' }),
    started_at: timestampSchema,
    resolved_at: timestampSchema.nullable(),
    linked_incident_ids: z.array(z.string()),
    draft: z.boolean(),
    drafted_from: z.strictObject({ entity_id: z.string(), transition_id: z.string() }).nullable().meta({
      description:
        'Set on a draft Vigil made from the dependency graph: the root cause and the transition that took it down',
    }),
    drafted_update: z
      .strictObject({ status: z.literal('resolved'), body: z.string(), at: timestampSchema })
      .nullable()
      .meta({ description: 'The all-clear’s resolved update, drafted: PATCH draft false publishes it' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'PageIncident' });
export type PageIncidentView = z.infer<typeof pageIncidentSchema>;

export const pageIncidentListSchema = z.strictObject({
  incidents: z.array(pageIncidentSchema),
  next_cursor: z.string().nullable(),
});

/** The stored record as its owner reads it (no tenant, no version). */
export function pageIncidentView(r: PageIncidentRecord): PageIncidentView {
  return {
    ...pick(r, [
      'id',
      'page',
      'title',
      'status',
      'impact',
      'updates',
      'started_at',
      'resolved_at',
      'linked_incident_ids',
      'draft',
      'drafted_from',
      'drafted_update',
      'created_at',
      'updated_at',
    ]),
    // Optional on a record, null in the view (overwriting keeps each key where pick put it).
    drafted_from: r.drafted_from ?? null,
    drafted_update: r.drafted_update ?? null,
  };
}
