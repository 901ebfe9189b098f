import type { TenantStore } from '../auth/tenants.ts';
import type { Principal, Role } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { AccountDisabledError, UnauthorizedError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { getGrant, grantUsedOp } from './grant-items.ts';
import { secretHash } from './secrets.ts';
import { getAccessToken } from './token-items.ts';

/** How often a grant's last_used_at is written at most (per process). */
const TOUCH_INTERVAL_MS = 60_000;

export interface AccessTokenDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: Pick<TenantStore, 'getTenant' | 'getUser'>;
}

/**
 * The principal of an OAuth access token (`Bearer vat_…`): its person, through the client. Its
 * grant and its person are read on every request, so a revoked grant or a removed person is
 * refused at once. The role is the person's, admin only with the `admin` scope; read-only unless
 * the token has `write` (and the person may write).
 */
export function createAccessTokenResolver(deps: AccessTokenDeps) {
  const touched = new Map<string, number>();
  const touch = async (key: { tenant_id: string; user_id: string; grant_id: string }, now: number) => {
    if (now - (touched.get(key.grant_id) ?? 0) < TOUCH_INTERVAL_MS) return;
    if (touched.size > 10_000) touched.clear();
    touched.set(key.grant_id, now);
    try {
      await deps.table.update(grantUsedOp(key, isoTime(now)));
    } catch (err) {
      deps.logger.info('grant use not recorded', { grant_id: key.grant_id, err });
    }
  };

  return async function resolveAccessToken(token: string): Promise<Principal> {
    const invalid = () => new UnauthorizedError('invalid or expired access token');
    if (token.length > 200) throw invalid();
    const record = await getAccessToken(deps.table, secretHash(token));
    const now = deps.clock.now();
    if (!record || Date.parse(record.expires_at) <= now) throw invalid();
    const [grant, tenant, user] = await Promise.all([
      getGrant(deps.table, record),
      deps.tenants.getTenant(record.tenant_id),
      deps.tenants.getUser(record.tenant_id, record.user_id),
    ]);
    if (!grant || !tenant || !user) throw invalid();
    if (tenant.disabled) throw new AccountDisabledError();
    await touch(record, now);
    // The token's scopes, no more than its grant holds now (a narrower re-approval applies at once).
    const scopes = record.scopes.filter((s) => grant.scopes.includes(s));
    const role: Role = user.role === 'admin' ? (scopes.includes('admin') ? 'admin' : 'member') : user.role;
    return {
      tenantId: record.tenant_id,
      userId: record.user_id,
      keyId: record.grant_id,
      role,
      readOnly: !scopes.includes('write') || user.role === 'viewer',
      credential: 'oauth',
      scopes,
      actor: { type: 'oauth_client', id: record.client_id, label: record.client_name },
    };
  };
}
