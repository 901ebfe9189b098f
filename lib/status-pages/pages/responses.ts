import * as z from 'zod';
import { type NamedEntity, namedEntitySchema } from '../../catalog/entities.ts';
import { timestampSchema } from '../../http/route-schemas.ts';
import type { StatusPageRecord } from '../items/status-page-items.ts';

/** Response bodies of the status-page routes (the owner's view; the public view is public-view.ts's). */

export const statusPageSchema = z
  .strictObject({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    entity_ids: z.array(z.string()),
    entities: z.array(namedEntitySchema).meta({
      description: 'The entities entity_ids names that still exist, with their names and addresses',
    }),
    show_incidents: z.boolean(),
    auto_publish_drafts_after_minutes: z.number().int().nullable().meta({
      description:
        'Minutes after which an untouched draft from the dependency graph is published; null: never',
    }),
    visibility: z
      .enum(['public', 'password', 'sso'])
      .meta({ description: 'Who may read /p/{slug} (the password is never returned)' }),
    public_path: z.string().meta({ description: 'Where the page is served without a key: /p/{slug}' }),
    domain: z.string().nullable().meta({
      description:
        'The custom domain the page also answers on (https://{domain}/ is the page; its links and feeds use it); null: none',
    }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'StatusPage' });
export type PublicStatusPageRecord = z.infer<typeof statusPageSchema>;

export const statusPageListSchema = z.strictObject({ status_pages: z.array(statusPageSchema) });

/** A page as its owner reads it: the stored record without tenant and version, its entities named. */
export function ownerView(page: StatusPageRecord, entities: NamedEntity[]): PublicStatusPageRecord {
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    entity_ids: page.entity_ids,
    entities,
    show_incidents: page.show_incidents,
    auto_publish_drafts_after_minutes: page.auto_publish_drafts_after_minutes ?? null,
    visibility: page.visibility,
    public_path: `/p/${page.slug}`,
    domain: page.domain,
    created_at: page.created_at,
    updated_at: page.updated_at,
  };
}
