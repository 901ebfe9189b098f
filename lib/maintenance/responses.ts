import * as z from 'zod';
import { type NamedEntity, namedEntitySchema } from '../catalog/entities.ts';
import { idSchema, timestampSchema } from '../http/route-schemas.ts';
import type { WindowRecord } from './maintenance-items.ts';

/** Response bodies of the maintenance routes. */

export const publicWindowSchema = z
  .strictObject({
    id: idSchema('mnt'),
    name: z.string(),
    entity_ids: z.array(z.string()),
    entities: z.array(namedEntitySchema).meta({
      description: 'The entities entity_ids names that still exist, with their names and addresses',
    }),
    blueprint_slugs: z.array(z.string()),
    include_dependents: z.boolean(),
    starts_at: timestampSchema.nullable(),
    ends_at: timestampSchema.nullable(),
    cron: z.string().nullable(),
    duration_seconds: z.number().int().nullable(),
    timezone: z.string().nullable(),
    active: z.boolean().meta({ description: 'Whether the window is on now (computed when read)' }),
    announce: z.boolean().meta({ description: 'Shown on the status pages that show an entity it covers' }),
    announce_from: timestampSchema
      .nullable()
      .meta({ description: 'One-off windows: shown from then; null: from when it was announced' }),
    announce_lead_seconds: z.number().int().nullable().meta({
      description: 'Recurring windows: each run shown this long before it starts; null for one-off ones',
    }),
    announced_at: timestampSchema
      .nullable()
      .meta({ description: 'When announce last turned on; null while not announced' }),
    public_note: z.string().nullable().meta({ description: 'Markdown shown with the notice; null: none' }),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'MaintenanceWindow' });
export type PublicWindow = z.infer<typeof publicWindowSchema>;

export const windowListSchema = z.strictObject({ windows: z.array(publicWindowSchema) });

/** A window as returned: the stored record without its tenant and version, with `active` as of now and its entities named. */
export function publicWindow(window: WindowRecord, active: boolean, entities: NamedEntity[]): PublicWindow {
  return {
    id: window.id,
    name: window.name,
    entity_ids: window.entity_ids,
    entities,
    blueprint_slugs: window.blueprint_slugs,
    include_dependents: window.include_dependents,
    starts_at: window.starts_at,
    ends_at: window.ends_at,
    cron: window.cron,
    duration_seconds: window.duration_seconds,
    timezone: window.timezone,
    active,
    announce: window.announce,
    announce_from: window.announce_from,
    announce_lead_seconds: window.announce_lead_seconds,
    announced_at: window.announced_at,
    public_note: window.public_note,
    created_at: window.created_at,
    updated_at: window.updated_at,
  };
}
