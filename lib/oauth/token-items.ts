import * as z from 'zod';
import { scopeSchema } from '../domain/formats.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import type { Table, UpdateOp, WriteOp } from '../store/table.ts';

/**
 * What the token endpoint issues and takes back, each stored by the SHA-256 of its secret (never
 * the secret): authorization codes (60 s, single use), access tokens (`vat_…`, 1 h) and refresh
 * tokens (`vrt_…`, rotating). Each names its grant (lib/oauth/grant-items.ts), whose deletion
 * makes it worthless. Every item carries `ttl` past `expires_at`; readers check `expires_at`
 * themselves (TTL is lazy).
 */

const issued = {
  tenant_id: z.string(),
  user_id: z.string(),
  grant_id: z.string(),
  client_id: z.string(),
  scopes: z.array(scopeSchema),
  expires_at: z.string(),
};

const codeSchema = z.object({
  ...issued,
  hash: z.string(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  resource: z.string().optional(),
  /** Set when the code is exchanged: a second exchange is a replay (the grant is revoked). */
  used_at: z.string().optional(),
});
export type AuthorizationCode = z.infer<typeof codeSchema>;

const accessTokenSchema = z.object({ ...issued, hash: z.string(), client_name: z.string() });
export type AccessToken = z.infer<typeof accessTokenSchema>;

const refreshTokenSchema = z.object({
  ...issued,
  hash: z.string(),
  /** Set when it was exchanged for a new pair: using it again is a replay (the grant is revoked). */
  rotated_at: z.string().optional(),
});
export type RefreshToken = z.infer<typeof refreshTokenSchema>;

/** Epoch seconds of `expires_at` plus `graceS`: how long the item is kept to recognise a replay. */
const ttlAfter = (expiresAt: string, graceS: number) => Math.ceil(Date.parse(expiresAt) / 1000) + graceS;

const code = defineItem({
  type: itemType('oauth_code'),
  schema: codeSchema,
  key: (k: { hash: string }) => ({ pk: `OAUTHCODE#${k.hash}`, sk: 'CODE' }),
  ttl: (r) => ttlAfter(r.expires_at, 3600),
  docKey: { hash: '<sha256 of the code>' },
});

const accessToken = defineItem({
  type: itemType('oauth_access_token'),
  schema: accessTokenSchema,
  key: (k: { hash: string }) => ({ pk: `OAUTHAT#${k.hash}`, sk: 'TOKEN' }),
  ttl: (r) => ttlAfter(r.expires_at, 0),
  docKey: { hash: '<sha256 of the token>' },
});

const refreshToken = defineItem({
  type: itemType('oauth_refresh_token'),
  schema: refreshTokenSchema,
  key: (k: { hash: string }) => ({ pk: `OAUTHRT#${k.hash}`, sk: 'TOKEN' }),
  ttl: (r) => ttlAfter(r.expires_at, 0),
  docKey: { hash: '<sha256 of the token>' },
});

export const getCode = (table: Table, hash: string) => code.get(table, { hash }, { consistent: true });
export const getAccessToken = (table: Table, hash: string) => accessToken.get(table, { hash });
export const getRefreshToken = (table: Table, hash: string) =>
  refreshToken.get(table, { hash }, { consistent: true });

export const codePutOp = (record: AuthorizationCode): WriteOp => code.put(record, { kind: 'itemNotExists' });
export const accessTokenPutOp = (record: AccessToken): WriteOp => accessToken.put(record);
export const refreshTokenPutOp = (record: RefreshToken): WriteOp => refreshToken.put(record);

/** Marks a code used; fails (ConditionFailedError) when it already was: the single use. */
export function codeUsedOp(hash: string, at: string): UpdateOp {
  return code.update(
    { hash },
    {
      set: { used_at: at },
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'attrNotExists', attr: 'used_at' }],
      },
    },
  );
}

/** Marks a refresh token rotated; fails (ConditionFailedError) when it already was. */
export function refreshRotatedOp(hash: string, at: string): UpdateOp {
  return refreshToken.update(
    { hash },
    {
      set: { rotated_at: at },
      condition: {
        kind: 'and',
        conditions: [{ kind: 'itemExists' }, { kind: 'attrNotExists', attr: 'rotated_at' }],
      },
    },
  );
}

export const accessTokenDeletedOp = (hash: string): WriteOp => accessToken.delete({ hash });
export const refreshTokenDeletedOp = (hash: string): WriteOp => refreshToken.delete({ hash });
