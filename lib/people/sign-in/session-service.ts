import { createHash, randomBytes } from 'node:crypto';
import { randomBase62, sameDigest } from '../../auth/api-key.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { Principal } from '../../domain/principal.ts';
import { SESSION_COOKIE } from '../../http/policies.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { AccountDisabledError, UnauthorizedError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { PeopleSettings } from '../../platform/people-config.ts';
import { transactIf } from '../../store/items.ts';
import { MAX_TRANSACTION_OPS, type Table } from '../../store/table.ts';
import {
  getSessionByHash,
  getUserSession,
  listUserSessions,
  type SessionRecord,
  sessionCreatedOps,
  sessionDeletedOps,
  sessionSeenOps,
} from './session-items.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from './sign-in-device.ts';

export interface SessionServiceDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: Pick<TenantStore, 'getTenant' | 'getUser'>;
  settings: PeopleSettings;
  /** The cloud always serves over https; locally the request or VIGIL_PUBLIC_URL tells. */
  runtime: 'local' | 'cloud';
  publicUrl: string | undefined;
}

/** What a sign-in knows of the request: its headers (user agent, protocol) and address. */
export interface SignInRequest {
  headers: Record<string, string>;
  sourceIp?: string | undefined;
}

export type SessionService = ReturnType<typeof createSessionService>;

/** The raw session id the cookie carries: `vss_` and 40 base62 characters (238 bits). */
const RAW_ID = /^vss_[0-9A-Za-z]{40}$/;
/** last_seen_at is written at most this often per session. */
const SEEN_INTERVAL_MS = 60_000;
const MAX_USER_AGENT = 256;

const hashSessionId = (raw: string) => createHash('sha256').update(raw, 'utf8').digest('hex');

/**
 * Console sessions (docs/auth.md "Sessions"): a sign-in starts one (a new random id every time,
 * so a cookie planted before sign-in is worth nothing), the cookie's id resolves to a principal on
 * each request until the idle or absolute timeout, and sign-out, revocation, a password change or
 * the member's removal end them.
 */
export function createSessionService(deps: SessionServiceDeps) {
  const { table, clock, settings } = deps;

  const secureRequest = (req: SignInRequest) =>
    deps.runtime === 'cloud' ||
    deps.publicUrl?.startsWith('https:') === true ||
    req.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';

  const cookie = (value: string, maxAgeSeconds: number, req: SignInRequest) =>
    `${SESSION_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secureRequest(req) ? '; Secure' : ''}`;

  const idleExpired = (record: SessionRecord, now: number) =>
    now - Date.parse(record.last_seen_at) >= settings.sessionIdleMs;
  const expired = (record: SessionRecord, now: number) =>
    Date.parse(record.expires_at) <= now || idleExpired(record, now);

  const remove = (records: SessionRecord[]) => {
    const perTransaction = MAX_TRANSACTION_OPS / 2;
    const batches: Promise<boolean>[] = [];
    for (let i = 0; i < records.length; i += perTransaction)
      batches.push(transactIf(table, records.slice(i, i + perTransaction).flatMap(sessionDeletedOps)));
    return Promise.all(batches);
  };

  const seen = async (record: SessionRecord, now: number) => {
    if (now - Date.parse(record.last_seen_at) < SEEN_INTERVAL_MS) return;
    try {
      await transactIf(table, sessionSeenOps(record, isoTime(now)));
    } catch (err) {
      deps.logger.warn('could not record session use', { session_id: record.id, err });
    }
  };

  /** The session's tenant and person while it is live (recording its use); throws as `resolve` answers. */
  const live = async (record: SessionRecord) => {
    const now = clock.now();
    if (expired(record, now)) {
      // The ttl deletes it at the absolute end; an idle one is deleted now.
      await remove([record]).catch(() => undefined);
      throw new UnauthorizedError('the session has expired: sign in again');
    }
    const [tenant, user] = await Promise.all([
      deps.tenants.getTenant(record.tenant_id),
      deps.tenants.getUser(record.tenant_id, record.user_id),
    ]);
    if (!tenant || !user) throw new UnauthorizedError('missing or invalid session');
    if (tenant.disabled) throw new AccountDisabledError();
    await seen(record, now);
    return { tenant, user };
  };

  return {
    /** Starts a session: its record, and the Set-Cookie value that hands the browser its raw id. */
    async start(input: {
      tenantId: string;
      userId: string;
      method: 'password' | 'sso';
      req: SignInRequest;
    }): Promise<{ sessionId: string; setCookie: string }> {
      const now = clock.now();
      const raw = `vss_${randomBase62(40)}`;
      const userAgent = input.req.headers['user-agent'];
      const record: SessionRecord = {
        id: newId('ses', now),
        tenant_id: input.tenantId,
        user_id: input.userId,
        session_hash: hashSessionId(raw),
        csrf_token: randomBytes(32).toString('base64url'),
        method: input.method,
        created_at: isoTime(now),
        last_seen_at: isoTime(now),
        expires_at: isoTime(now + settings.sessionMaxMs),
        ...(input.req.sourceIp ? { source_ip: input.req.sourceIp } : {}),
        ...(userAgent ? { user_agent: userAgent.slice(0, MAX_USER_AGENT) } : {}),
      };
      await table.transact(sessionCreatedOps(record));
      const maxAge = Math.floor(settings.sessionMaxMs / 1000);
      return { sessionId: record.id, setCookie: cookie(raw, maxAge, input.req) };
    },

    /** The Set-Cookie value that clears the cookie (sign-out). */
    clearCookie: (req: SignInRequest) => cookie('', 0, req),

    /** The Set-Cookie value of a browser's device cookie: sent only to the sign-in, for a year. */
    deviceCookie: (raw: string, req: SignInRequest) =>
      `${DEVICE_COOKIE}=${raw}; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; Path=/v1/session; HttpOnly; SameSite=Strict${secureRequest(req) ? '; Secure' : ''}`,

    /** The principal of a raw session id; UnauthorizedError when unknown or expired, AccountDisabledError for a disabled tenant. */
    async resolve(raw: string): Promise<Principal> {
      if (!RAW_ID.test(raw)) throw new UnauthorizedError('missing or invalid session');
      const hash = hashSessionId(raw);
      const record = await getSessionByHash(table, hash);
      if (!record || !sameDigest(record.session_hash, hash))
        throw new UnauthorizedError('missing or invalid session');
      const { tenant, user } = await live(record);
      return {
        tenantId: tenant.id,
        userId: user.id,
        keyId: record.id,
        role: user.role,
        readOnly: user.role === 'viewer',
        credential: 'session',
        actor: { type: 'user', id: user.id, label: user.email },
        csrfToken: record.csrf_token,
        signedInWith: record.method,
      };
    },

    /**
     * A live session by its id (an SSO status page's reader on its custom domain, whose cookie names
     * the session): as `resolve` judges it, counted as a use; undefined when it is gone, expired, or
     * its person or account is.
     */
    async byId(tenantId: string, userId: string, sessionId: string): Promise<SessionRecord | undefined> {
      const record = await getUserSession(table, tenantId, userId, sessionId);
      if (!record) return undefined;
      try {
        await live(record);
      } catch (err) {
        if (err instanceof UnauthorizedError || err instanceof AccountDisabledError) return undefined;
        throw err;
      }
      return record;
    },

    /** The user's live sessions, newest first. */
    async list(tenantId: string, userId: string): Promise<SessionRecord[]> {
      const now = clock.now();
      const records = await listUserSessions(table, tenantId, userId);
      return records.filter((record) => !expired(record, now)).reverse();
    },

    /** Ends one of the user's sessions; false when they have no such session. */
    async revoke(tenantId: string, userId: string, sessionId: string): Promise<boolean> {
      const record = await getUserSession(table, tenantId, userId, sessionId);
      if (!record) return false;
      await remove([record]);
      return true;
    },

    /** Ends every session of the user but `exceptSessionId`; answers how many were ended. */
    async revokeAll(tenantId: string, userId: string, exceptSessionId?: string): Promise<number> {
      const records = (await listUserSessions(table, tenantId, userId)).filter(
        (r) => r.id !== exceptSessionId,
      );
      await remove(records);
      return records.length;
    },
  };
}
