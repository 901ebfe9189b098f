import * as z from 'zod';
import { heartbeatRequestSchema } from '../agent/protocol.ts';
import { DEFAULT_LOCATION } from '../domain/states.ts';
import { idSchema, namesResource, timestampSchema } from '../http/route-schemas.ts';
import { LOCATION_KINDS } from './location-items.ts';

/** Request and response bodies of the location routes and the agent's heartbeat. */

/** The name every tenant's own runtime location has (lib/domain/states/quorum.ts); no stored location may take it. */
export { DEFAULT_LOCATION };

/** A location's name: what checks will name it by (`office`, `eu-west-1`). */
const locationNameSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/)
  .meta({
    description: 'Lower-case letters, digits and inner hyphens, 1 to 40 characters; `default` is taken',
  });

export const locationParams = z.strictObject({ id: idSchema('loc') });
export const locationKeyParams = z.strictObject({
  id: idSchema('loc'),
  key_id: namesResource(idSchema('lky'), 'location key'),
});

export const createLocationBody = z.strictObject({
  name: locationNameSchema,
  kind: z.enum(LOCATION_KINDS),
});

/** The heartbeat's body is the agent protocol's (lib/agent/protocol.ts). */
export const heartbeatBody = heartbeatRequestSchema;

const stateSchema = z.enum(['online', 'offline']).meta({
  description:
    'online when the location was seen within the last 90 seconds; `default` is the runtime itself',
});

const publicLocationSchema = z
  .strictObject({
    id: z.union([idSchema('loc'), z.literal(DEFAULT_LOCATION)]),
    name: z.string(),
    kind: z.enum(['runtime', ...LOCATION_KINDS]).meta({
      description: '`runtime` for `default` (the runtime’s own workers), else as created',
    }),
    state: stateSchema,
    last_seen_at: timestampSchema.nullable(),
    version: z.string().nullable(),
    created_at: timestampSchema,
  })
  .meta({ id: 'Location' });
export type PublicLocation = z.infer<typeof publicLocationSchema>;

export const locationListSchema = z.strictObject({ locations: z.array(publicLocationSchema) });

export const newLocationKeySchema = z
  .strictObject({
    key_id: idSchema('lky'),
    key: z.string().meta({ description: 'The location key (`vlk_…`), shown this once' }),
    prefix: z.string(),
    created_at: timestampSchema,
  })
  .meta({ id: 'NewLocationKey' });

export const createdLocationSchema = z
  .strictObject({
    id: idSchema('loc'),
    name: z.string(),
    kind: z.enum(LOCATION_KINDS),
    key_id: idSchema('lky'),
    key: z.string().meta({ description: 'The location key (`vlk_…`), shown this once' }),
  })
  .meta({ id: 'CreatedLocation' });

export const locationKeyListSchema = z.strictObject({
  keys: z.array(
    z
      .strictObject({ id: idSchema('lky'), prefix: z.string(), created_at: timestampSchema })
      .meta({ id: 'LocationKey' }),
  ),
});

export const heartbeatReplySchema = z.strictObject({
  location: z.strictObject({ id: idSchema('loc'), name: z.string() }),
  server_time: timestampSchema,
});
