import * as z from 'zod';
import { ROLES } from '../domain/principal.ts';

/** The wire shapes of the SSO routes (docs/api.md "SSO"). */

const DOMAIN = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** An http(s) URL without query, fragment or credentials (issuer-url.ts checks the rest). */
const ISSUER =
  /^https?:\/\/[A-Za-z0-9.-]{1,253}(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?(\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export const ssoSettingsBody = z
  .strictObject({
    issuer: z
      .string()
      .max(500)
      .regex(ISSUER, 'Enter the provider’s issuer URL (https://…).')
      .meta({ description: 'The provider’s issuer URL (https)' }),
    client_id: z.string().min(1).max(256),
    client_secret: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .meta({ description: 'Write-only; absent or `********` keeps the stored one' }),
    email_domains: z
      .array(
        z.preprocess(
          (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
          z.string().max(253).regex(DOMAIN, 'Enter a domain such as example.com.'),
        ),
      )
      .min(1)
      .max(20)
      .meta({ description: 'Who may sign in: e-mail domains (lower case)' }),
    default_role: z.enum(ROLES).default('member'),
    required: z.boolean().default(false).meta({ description: 'Refuse password sign-in to this team' }),
    slug: z
      .string()
      .regex(SLUG, 'Lower-case letters, digits and dashes.')
      .optional()
      .meta({ description: 'A name for /v1/sso/start?tenant=<slug>, unique across teams' }),
  })
  .meta({ id: 'SsoSettingsInput' });
export type SsoSettingsInput = z.output<typeof ssoSettingsBody>;

export const ssoSettingsSchema = z
  .strictObject({
    configured: z.boolean(),
    issuer: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.literal('********').optional(),
    email_domains: z.array(z.string()),
    default_role: z.enum(ROLES),
    required: z.boolean(),
    slug: z.string().optional(),
    updated_at: z.string().optional(),
    callback_path: z
      .string()
      .meta({ description: 'The redirect URI to register is this path on Vigil’s origin' }),
  })
  .meta({ id: 'SsoSettings' });
export type SsoSettingsView = z.infer<typeof ssoSettingsSchema>;

export const ssoStartQuery = z.object({
  tenant: z.string().min(1).max(100).meta({ description: 'The team’s id (tnt_…) or its SSO slug' }),
  next: z.string().max(1000).optional().meta({ description: 'A path on Vigil to land on after sign-in' }),
});

export const ssoCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  iss: z.string().max(500).optional(),
});
