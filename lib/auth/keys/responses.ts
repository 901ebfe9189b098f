import * as z from 'zod';
import { idSchema, timestampSchema } from '../../http/route-schemas.ts';
import { limitsSchema, tenantSchema } from '../tenants/tenant-items.ts';
import { userSchema } from '../tenants/user-items.ts';
import { apiKeySchema } from './api-key-items.ts';

/** Response bodies of the account and key routes; never a hash, a raw key only where created. */

/** A raw API key in the one answer that shows it. */
export const rawKey = z
  .string()
  .meta({ description: 'The raw API key (vgl_...): shown only in this response' });

/** GET /v1/me. */
export const meSchema = z.strictObject({
  ...tenantSchema.pick({ email: true, name: true }).shape,
  ...limitsSchema.shape,
  email_daily_limit: z.number().int().meta({ description: 'Emails (one per recipient) per UTC day' }),
  id: idSchema('tnt'),
  created_at: timestampSchema,
  user: z
    .strictObject({ ...userSchema.pick({ email: true, name: true, role: true }).shape, id: idSchema('usr') })
    .nullable(),
  key: z.strictObject({
    id: idSchema('key', 'ses', 'ogr').meta({
      description:
        'The API key, the session (`ses_…`) when signed in by cookie, or the OAuth grant (`ogr_…`) of an MCP client’s token',
    }),
    is_read_only: z.boolean(),
  }),
  credential: z.enum(['key', 'session', 'oauth']),
  csrf_token: z.string().nullable().meta({
    description: 'Signed in by cookie: what cookie-authenticated writes send as X-CSRF-Token; else null',
  }),
  totp_enabled: z.boolean().meta({ description: 'Whether your sign-in asks for a TOTP code (docs/auth.md)' }),
});

/** An API key as publicKey returns it. */
export const publicKeySchema = z
  .strictObject({
    ...apiKeySchema.pick({ label: true, is_read_only: true, prefix: true }).shape,
    id: idSchema('key'),
    user_id: idSchema('usr'),
    created_at: timestampSchema,
    last_used_at: timestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });

/** POST /v1/auth/keys. */
export const createdKeySchema = z.strictObject({ ...publicKeySchema.shape, key: rawKey });
