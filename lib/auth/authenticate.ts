import { isWellFormedApiKey } from '../domain/formats.ts';
import type { Principal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { AccountDisabledError, UnauthorizedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { hashApiKey, sameDigest } from './api-key.ts';
import type { KeyStore } from './keys/key-store.ts';
import type { Tenant } from './tenants/tenant-items.ts';
import type { TenantStore } from './tenants/tenant-store.ts';
import type { User } from './tenants/user-items.ts';

/** How often a key's last_used_at is written at most (per process). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * How long a key's tenant and user, once found enabled, are reused without reading them again (per
 * process): a tenant disabled by the operator is refused within this. The key itself is read on
 * every request, so a deleted key (and a removed member's keys) is refused at once.
 */
export const AUTH_CACHE_MS = 5000;

/** Resolves one credential (a session id, an OAuth access token) to its principal, or throws UnauthorizedError. */
type CredentialResolver = (credential: string) => Promise<Principal>;

export interface AuthenticatorDeps {
  keys: KeyStore;
  tenants: TenantStore;
  clock: Clock;
  logger: Logger;
  /** `Session <id>`: the console's cookie, which the router hands on in this form (lib/http/router.ts). */
  sessions?: CredentialResolver;
  /** `Bearer vat_…`: an OAuth access token of an MCP client. */
  accessTokens?: CredentialResolver;
}

/** The prefix of OAuth access tokens, which the Bearer scheme shares with API keys. */
export const ACCESS_TOKEN_PREFIX = 'vat_';

/**
 * Resolves the Authorization value to a principal: `Bearer <api key>` (key hash -> tenant, user,
 * role, read-only), `Bearer vat_…` (an OAuth access token) or `Session <id>` (a console session).
 */
export function createAuthenticator(deps: AuthenticatorDeps) {
  const lastTouched = new Map<string, number>();
  const accounts = new Map<string, { tenant: Tenant; user: User; readAtMs: number }>();

  /** The key's tenant and user: reused for AUTH_CACHE_MS once both were found and the tenant enabled. */
  const account = async (tenantId: string, userId: string, now: number) => {
    const id = `${tenantId}/${userId}`;
    const hit = accounts.get(id);
    if (hit && now >= hit.readAtMs && now - hit.readAtMs < AUTH_CACHE_MS) return hit;
    const [tenant, user] = await Promise.all([
      deps.tenants.getTenant(tenantId),
      deps.tenants.getUser(tenantId, userId),
    ]);
    if (!tenant || !user || tenant.disabled) {
      accounts.delete(id);
      return { tenant, user };
    }
    if (accounts.size >= 10_000) accounts.clear();
    const entry = { tenant, user, readAtMs: now };
    accounts.set(id, entry);
    return entry;
  };

  // last_used_at is written at most once a minute per key and process, never on every request.
  const touch = async (tenantId: string, keyId: string, now: number) => {
    const last = lastTouched.get(keyId) ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    if (lastTouched.size > 10_000) lastTouched.clear();
    lastTouched.set(keyId, now);
    try {
      await deps.keys.touch(tenantId, keyId, now);
    } catch (err) {
      deps.logger.warn('could not record key use', { key_id: keyId, err });
    }
  };

  /**
   * The hash of a well-formed key (undefined for anything else). The last key's is kept: a client
   * sends one key request after request, and its checksum and SHA-256 need not be worked out again.
   */
  let lastKey: { raw: string; hash: string } | undefined;
  const hashOf = (raw: string | undefined): string | undefined => {
    if (!raw) return undefined;
    if (lastKey?.raw === raw) return lastKey.hash;
    if (!isWellFormedApiKey(raw)) return undefined;
    lastKey = { raw, hash: hashApiKey(raw) };
    return lastKey.hash;
  };

  return async function authenticate(authorization: string | undefined): Promise<Principal> {
    const session = /^Session\s+(\S+)\s*$/.exec(authorization ?? '')?.[1];
    if (session !== undefined) {
      if (!deps.sessions) throw new UnauthorizedError();
      return deps.sessions(session);
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const raw = match?.[1];
    if (raw?.startsWith(ACCESS_TOKEN_PREFIX)) {
      if (!deps.accessTokens) throw new UnauthorizedError();
      return deps.accessTokens(raw);
    }
    const hash = hashOf(raw);
    if (hash === undefined) throw new UnauthorizedError();
    const lookup = await deps.keys.findByHash(hash);
    if (!lookup || !sameDigest(lookup.key_hash, hash)) throw new UnauthorizedError();
    const now = deps.clock.now();
    const { tenant, user } = await account(lookup.tenant_id, lookup.user_id, now);
    if (!tenant || !user) throw new UnauthorizedError();
    if (tenant.disabled) throw new AccountDisabledError();
    await touch(tenant.id, lookup.key_id, now);
    return {
      tenantId: tenant.id,
      userId: user.id,
      keyId: lookup.key_id,
      role: user.role,
      // A viewer is a read-only person: every key of theirs reads only.
      readOnly: lookup.is_read_only || user.role === 'viewer',
      credential: 'key',
    };
  };
}
