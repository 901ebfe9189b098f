import * as z from 'zod';
import { slugSchema } from '../domain/slug.ts';
import { idSchema, namesResource } from '../http/route-schemas.ts';
import { PAGE_LIMITS } from './status-page-items.ts';

/** Request bodies and parameters of the status-page routes; unknown fields are rejected (400). */

export const pageSlugSchema = namesResource(slugSchema(), 'status page');
export const pageParams = z.object({ slug: pageSlugSchema });

/** The editable part of a page (PUT takes all of it; the slug is the page's name and never changes). */
const pageFields = {
  title: z.string().regex(/\S/, 'must not be blank').trim().min(1).max(PAGE_LIMITS.title),
  description: z.string().trim().max(PAGE_LIMITS.description).nullable().optional(),
  entity_ids: z
    .array(idSchema('ent'))
    .max(PAGE_LIMITS.entityIds)
    .default([])
    .meta({ description: 'The entities shown, in this order (the tenant’s own)' }),
  show_incidents: z
    .boolean()
    .default(true)
    .meta({ description: 'Whether the public page lists open and recent incidents' }),
};

export const pageCreateBody = z.strictObject({
  slug: slugSchema().meta({ description: 'Globally unique: the public URL is /p/{slug}' }),
  ...pageFields,
});
export type PageCreateBody = z.infer<typeof pageCreateBody>;

export const pageReplaceBody = z.strictObject(pageFields);
export type PageReplaceBody = z.infer<typeof pageReplaceBody>;
