import * as z from 'zod';
import {
  MAX_PAGE_DOMAIN_LENGTH,
  PAGE_DOMAIN_PATTERN,
  PAGE_DOMAIN_RULE,
  slugSchema,
} from '../../domain/formats.ts';
import { idSchema, namesResource } from '../../http/route-schemas.ts';
import { PAGE_LIMITS } from './status-page-items.ts';

/** Request bodies and parameters of the status-page routes; unknown fields are rejected (400). */

const pageSlugSchema = namesResource(slugSchema(), 'status page');
export const pageParams = z.object({ slug: pageSlugSchema });

/**
 * Names a public page may not take, since a visitor would read /p/{slug} as the service's own page
 * (a sign-in, the API, an official status) and a phishing page could pose as it. Only new pages
 * are refused: a page created before keeps its name and can still be read, changed and deleted.
 * Slugs are ASCII (SLUG), so no mixed-script look-alike exists; punycode is the one way to spell
 * one, refused below.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'about',
  'account',
  'accounts',
  'admin',
  'administrator',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'console',
  'dashboard',
  'docs',
  'health',
  'healthz',
  'help',
  'login',
  'logout',
  'mail',
  'oauth',
  'official',
  'p',
  'password',
  'ping',
  'register',
  'root',
  'security',
  'settings',
  'signin',
  'signup',
  'static',
  'status',
  'support',
  'system',
  'v1',
  'verify',
  'vigil',
  'www',
]);

/**
 * IDNA reserves labels with hyphens in the 3rd and 4th places (RFC 5891 §4.2.3.1): `xn--` is
 * punycode, which a browser shows as another script (xn--pple-43d is аpple with a Cyrillic а).
 */
const PUNYCODE_LIKE = 'Do not put hyphens in the 3rd and 4th places (xn--…: a punycode look-alike).';

/** The editable part of a page (PUT takes all of it; the slug is the page's name and never changes). */
const pageFields = {
  title: z.string().regex(/\S/, 'This field is required.').trim().min(1).max(PAGE_LIMITS.title),
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
  auto_publish_drafts_after_minutes: z
    .number()
    .int()
    .min(1)
    .max(PAGE_LIMITS.autoPublishMinutes)
    .nullable()
    .default(null)
    .meta({
      description:
        'Publish a draft Vigil made from the dependency graph after this many minutes if nobody edited, published or deleted it; null (default): never',
    }),
  visibility: z.enum(['public', 'password', 'sso']).optional().meta({
    description:
      'public (default for a new page): anyone reads /p/{slug}; password: every /p/{slug} route answers a password form until the visitor gives `password`; sso: only people of this team signed in through its SSO read it (the team must have SSO set up). Absent on PUT: unchanged',
  }),
  password: z.string().min(PAGE_LIMITS.password.min).max(PAGE_LIMITS.password.max).optional().meta({
    description:
      'Write-only (never returned): the password of a `visibility: password` page, stored hashed; a new one signs every visitor out',
  }),
  domain: z
    .string()
    .max(MAX_PAGE_DOMAIN_LENGTH)
    .regex(new RegExp(PAGE_DOMAIN_PATTERN), PAGE_DOMAIN_RULE)
    .nullable()
    .optional()
    .meta({
      description:
        'A custom domain the page also answers on (status.example.com: every path of it is this page’s, / the page itself): one of the deployment’s VIGIL_PAGE_DOMAINS, held by one page of one tenant (one another page holds is 409). null: none (frees it); absent on PUT: unchanged. Not for an `sso` page',
    }),
};

export const pageCreateBody = z.strictObject({
  slug: slugSchema()
    .refine((slug) => !RESERVED_SLUGS.has(slug), 'This name is reserved: choose another.')
    .refine((slug) => slug.slice(2, 4) !== '--', PUNYCODE_LIKE)
    .meta({
      description:
        'Globally unique: the public URL is /p/{slug}. Reserved names (admin, login, api, www, status, …) and ' +
        'names with hyphens in the 3rd and 4th places (xn--…, punycode look-alikes) are refused',
      // The same two rules, stated for the document's readers and generators.
      not: { anyOf: [{ enum: [...RESERVED_SLUGS] }, { pattern: '^.{2}--' }] },
    }),
  ...pageFields,
});
export type PageCreateBody = z.infer<typeof pageCreateBody>;

export const pageReplaceBody = z.strictObject(pageFields);
export type PageReplaceBody = z.infer<typeof pageReplaceBody>;
