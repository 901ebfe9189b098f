import * as z from 'zod';
import { ROLES } from '../domain/principal.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';
import { type Condition, ConditionFailedError, type Table, type WriteOp } from '../store/table.ts';

/**
 * The owner of SSO's stored items (docs/auth.md "SSO with OIDC"): a tenant's settings
 * (`sso_settings`, the client secret stored, never shown), the uniqueness item of its slug
 * (`sso_slug`, `/v1/sso/start?tenant=<slug>` finds the tenant by it), and a pending sign-in
 * (`sso_login`: state, nonce, PKCE verifier, the hash of the browser's binding cookie, kept server-side for 10 minutes and consumed once).
 */

const ssoSettingsSchema = z.object({
  tenant_id: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  /** Lower case, without `@`. */
  email_domains: z.array(z.string()),
  default_role: z.enum(ROLES),
  required: z.boolean(),
  slug: z.string().optional(),
  updated_at: z.string(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

const ssoSettings = defineItem({
  type: itemType('sso_settings'),
  schema: ssoSettingsSchema,
  key: (k: { tenant_id: string }) => ({ pk: tenantPk(k.tenant_id), sk: 'SSO#SETTINGS' }),
  docKey: { tenant_id: '<tnt>' },
});

const ssoSlugSchema = z.object({ slug: z.string(), tenant_id: z.string() });

const ssoSlug = defineItem({
  type: itemType('sso_slug'),
  schema: ssoSlugSchema,
  key: (k: { slug: string }) => ({ pk: `SSOSLUG#${k.slug}`, sk: '#SSOSLUG' }),
  docKey: { slug: '<slug>' },
});

const ssoLoginSchema = z.object({
  /** SHA-256 of the state sent to the provider (the state itself is only in the browser's URL). */
  state_hash: z.string(),
  tenant_id: z.string(),
  nonce: z.string(),
  code_verifier: z.string(),
  redirect_uri: z.string(),
  next: z.string(),
  /**
   * SHA-256 of the browser's binding cookie (login-cookie.ts): the callback signs in only the
   * browser that started. Absent on logins kept before the binding, which the callback refuses.
   */
  browser_hash: z.string().optional(),
  expires_at: z.string(),
});
export type SsoLogin = z.infer<typeof ssoLoginSchema>;

const ssoLogin = defineItem({
  type: itemType('sso_login'),
  schema: ssoLoginSchema,
  key: (k: { state_hash: string }) => ({ pk: `SSOLOGIN#${k.state_hash}`, sk: '#SSOLOGIN' }),
  ttl: (r) => Math.ceil(Date.parse(r.expires_at) / 1000),
  docKey: { state_hash: '<sha256 of state>' },
});

/** The tenant's SSO settings, or undefined (consistent). */
export function getSsoSettings(table: Table, tenantId: string): Promise<SsoSettings | undefined> {
  return ssoSettings.get(table, { tenant_id: tenantId }, { consistent: true });
}

/** The tenant whose SSO slug is `slug`, or undefined (consistent). */
export async function findSsoSlug(table: Table, slug: string): Promise<string | undefined> {
  return (await ssoSlug.get(table, { slug }, { consistent: true }))?.tenant_id;
}

/** Thrown by putSsoSettings when another tenant holds the slug. */
export class SlugTakenError extends Error {
  override readonly name = 'SlugTakenError';
}

/**
 * Writes `record`, replacing `current` (read just before): the settings only while they are
 * still `current`, the new slug claimed (free, or already this tenant's), the old one released.
 */
export async function putSsoSettings(
  table: Table,
  record: SsoSettings,
  current: SsoSettings | undefined,
): Promise<void> {
  const stillCurrent: Condition = current
    ? { kind: 'compare', attr: 'updated_at', op: '=', value: current.updated_at }
    : { kind: 'itemNotExists' };
  const ops: WriteOp[] = [ssoSettings.put(record, stillCurrent)];
  if (record.slug !== undefined && record.slug !== current?.slug) {
    ops.push(
      ssoSlug.put(
        { slug: record.slug, tenant_id: record.tenant_id },
        {
          kind: 'or',
          conditions: [
            { kind: 'itemNotExists' },
            { kind: 'compare', attr: 'tenant_id', op: '=', value: record.tenant_id },
          ],
        },
      ),
    );
  }
  if (current?.slug !== undefined && current.slug !== record.slug)
    ops.push(ssoSlug.delete({ slug: current.slug }));
  try {
    await table.transact(ops);
  } catch (err) {
    if (err instanceof ConditionFailedError && err.failed.includes(1))
      throw new SlugTakenError('slug taken', { cause: err });
    throw err;
  }
}

/** Keeps a pending sign-in (fails if its state hash is somehow already there). */
export async function putSsoLogin(table: Table, record: SsoLogin): Promise<void> {
  await table.transact([ssoLogin.put(record, { kind: 'itemNotExists' })]);
}

/**
 * Consumes the pending sign-in of `stateHash`: read, then deleted while it is still there, so a
 * state works once however many callbacks race. Undefined when unknown, used or expired at `at`.
 */
export async function takeSsoLogin(
  table: Table,
  stateHash: string,
  at: string,
): Promise<SsoLogin | undefined> {
  const found = await ssoLogin.get(table, { state_hash: stateHash }, { consistent: true });
  if (!found) return undefined;
  try {
    await table.transact([ssoLogin.delete({ state_hash: stateHash }, { kind: 'itemExists' })]);
  } catch (err) {
    if (err instanceof ConditionFailedError) return undefined;
    throw err;
  }
  return found.expires_at > at ? found : undefined;
}
