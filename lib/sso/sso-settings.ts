import { REDACTED } from '../domain/redaction.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { ConflictError, ValidationError } from '../platform/errors.ts';
import type { Table } from '../store/table.ts';
import { checkIssuer } from './issuer-url.ts';
import { getSsoSettings, putSsoSettings, SlugTakenError, type SsoSettings } from './sso-items.ts';
import type { SsoSettingsInput, SsoSettingsView } from './sso-schemas.ts';

/** Where the provider sends people back: the client's redirect URI is this path on Vigil's origin. */
export const CALLBACK_PATH = '/v1/sso/callback';

/** The settings as GET shows them: the client secret as `********`, never its value. */
function viewOf(settings: SsoSettings | undefined): SsoSettingsView {
  if (!settings)
    return {
      configured: false,
      email_domains: [],
      default_role: 'member',
      required: false,
      callback_path: CALLBACK_PATH,
    };
  return {
    configured: true,
    issuer: settings.issuer,
    client_id: settings.client_id,
    client_secret: REDACTED,
    email_domains: settings.email_domains,
    default_role: settings.default_role,
    required: settings.required,
    ...(settings.slug !== undefined ? { slug: settings.slug } : {}),
    updated_at: settings.updated_at,
    callback_path: CALLBACK_PATH,
  };
}

/** Whether the tenant's people may sign in with a password: not when SSO is required. */
export async function passwordAllowed(table: Table, tenantId: string): Promise<boolean> {
  return (await getSsoSettings(table, tenantId))?.required !== true;
}

/** Reads and changes a tenant's SSO settings (GET/PUT /v1/settings/sso). */
export function createSsoSettingsService(deps: {
  table: Table;
  clock: Clock;
  guard: Parameters<typeof checkIssuer>[1];
}) {
  return {
    async get(tenantId: string): Promise<SsoSettingsView> {
      return viewOf(await getSsoSettings(deps.table, tenantId));
    },

    /** Replaces the settings; a client secret absent or `********` keeps the stored one. */
    async put(tenantId: string, input: SsoSettingsInput): Promise<SsoSettingsView> {
      const current = await getSsoSettings(deps.table, tenantId);
      const keep = input.client_secret === undefined || input.client_secret === REDACTED;
      const secret = keep ? current?.client_secret : input.client_secret;
      if (secret === undefined)
        throw ValidationError.field('client_secret', 'Enter the client secret the provider gave you.');
      const issuer = await checkIssuer(input.issuer, deps.guard);
      const record: SsoSettings = {
        tenant_id: tenantId,
        issuer,
        client_id: input.client_id,
        client_secret: secret,
        email_domains: [...new Set(input.email_domains)],
        default_role: input.default_role,
        required: input.required,
        ...(input.slug !== undefined ? { slug: input.slug } : {}),
        updated_at: isoTime(deps.clock.now()),
      };
      try {
        await putSsoSettings(deps.table, record, current);
      } catch (err) {
        if (err instanceof SlugTakenError)
          throw ValidationError.field('slug', 'This slug is taken: choose another.');
        if (err instanceof Error && err.name === 'ConditionFailedError')
          throw new ConflictError('the SSO settings changed meanwhile: load them and try again');
        throw err;
      }
      return viewOf(record);
    },
  };
}

export type SsoSettingsService = ReturnType<typeof createSsoSettingsService>;
