import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Console sessions (docs/auth.md "Sessions", docs/data-model.md "People"): `session`, found by
 * the SHA-256 of the raw id the cookie carries (the only way from a cookie to its session; the raw
 * id is never stored), and `user_session`, the same session listed under its tenant by user, for
 * "your sessions" and for signing a user out everywhere. Both are written and deleted together,
 * and expire (ttl) at the session's absolute end.
 */

const sessionSchema = z.object({
  /** `ses_…`: the id shown and revoked by; not the secret the cookie carries. */
  id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  /** SHA-256 hex of the raw cookie value. */
  session_hash: z.string(),
  /** Cookie-authenticated writes must send it as X-CSRF-Token (lib/http/policies/csrf.ts). */
  csrf_token: z.string(),
  method: z.enum(['password', 'sso']),
  created_at: z.string(),
  /** Written at most once a minute; the idle timeout counts from it. */
  last_seen_at: z.string(),
  /** The absolute end, whatever the use. */
  expires_at: z.string(),
  source_ip: z.string().optional(),
  /** Bounded (lib/people/sign-in/session-service.ts). */
  user_agent: z.string().optional(),
});
export type SessionRecord = z.infer<typeof sessionSchema>;

const expiry = (record: SessionRecord) => Math.ceil(Date.parse(record.expires_at) / 1000);

const session = defineItem({
  type: itemType('session'),
  schema: sessionSchema,
  key: (k: { session_hash: string }) => ({ pk: `SESSION#${k.session_hash}`, sk: '#SESSION' }),
  ttl: expiry,
  docKey: { session_hash: '<sha256>' },
});

const USER_SESSION = 'USERSESSION#';

const userSession = defineItem({
  type: itemType('user_session'),
  schema: sessionSchema,
  key: (k: { tenant_id: string; user_id: string; id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${USER_SESSION}${k.user_id}#${k.id}`,
  }),
  ttl: expiry,
  docKey: { tenant_id: '<tnt>', user_id: '<usr>', id: '<ses>' },
});

/** The session of a cookie's hash, or undefined (consistent; an expired one may still be there). */
export function getSessionByHash(table: Table, hash: string): Promise<SessionRecord | undefined> {
  return session.get(table, { session_hash: hash }, { consistent: true });
}

/** One of the user's sessions by id, or undefined (consistent). */
export function getUserSession(
  table: Table,
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<SessionRecord | undefined> {
  return userSession.get(
    table,
    { tenant_id: tenantId, user_id: userId, id: sessionId },
    { consistent: true },
  );
}

/** The user's sessions, oldest first (expired ones not yet deleted by the ttl included; consistent). */
export async function listUserSessions(
  table: Table,
  tenantId: string,
  userId: string,
): Promise<SessionRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: `${USER_SESSION}${userId}#` },
        consistent: true,
        ...(cursor ? { cursor } : {}),
      }),
    1000,
  );
  return userSession.parseAll(items);
}

/** The puts of a new session: its hash lookup (must be new) and its listing under the user. */
export function sessionCreatedOps(record: SessionRecord): WriteOp[] {
  return [session.put(record, { kind: 'itemNotExists' }), userSession.put(record)];
}

/** The deletes of a session (sign-out, revocation, the user's removal). */
export function sessionDeletedOps(record: SessionRecord): WriteOp[] {
  return [session.delete({ session_hash: record.session_hash }), userSession.delete(record)];
}

/** Records use of a session (at most once a minute); only while it still exists, so a revoked one stays gone. */
export function sessionSeenOps(record: SessionRecord, at: string): WriteOp[] {
  const change = { set: { last_seen_at: at }, condition: { kind: 'itemExists' as const } };
  return [session.update({ session_hash: record.session_hash }, change), userSession.update(record, change)];
}
