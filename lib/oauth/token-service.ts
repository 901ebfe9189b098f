import type { RecordAuditEvent } from '../audit/event-audit.ts';
import { ACCESS_TOKEN_PREFIX } from '../auth/authenticate.ts';
import { parseScopeParam, scopeText } from '../domain/formats.ts';
import type { Scope } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../store/table.ts';
import { type Grant, type GrantKey, getGrant, grantDeletedOp } from './grant-items.ts';
import { newSecret, pkceMatches, REFRESH_TOKEN_PREFIX, secretHash } from './secrets.ts';
import {
  accessTokenDeletedOp,
  accessTokenPutOp,
  codeUsedOp,
  getAccessToken,
  getCode,
  getRefreshToken,
  refreshRotatedOp,
  refreshTokenDeletedOp,
  refreshTokenPutOp,
} from './token-items.ts';

const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

/** An RFC 6749 5.2 error of the token endpoint (`invalid_grant`, `invalid_request`, …). */
export class OauthTokenError extends Error {
  override name = 'OauthTokenError';
  readonly error: string;
  readonly description: string;
  readonly status: number;
  constructor(error: string, description: string, status = 400) {
    super(`${error}: ${description}`);
    this.error = error;
    this.description = description;
    this.status = status;
  }
}

export interface TokenServiceDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  /** The audit log: a grant revoked on a replay is recorded, its client the actor. */
  audit?: RecordAuditEvent | undefined;
}

/** The client whose code or refresh token was replayed, and the address that sent it. */
interface Replay {
  clientId: string;
  sourceIp?: string | undefined;
}

/** The token endpoint's work: codes exchanged once, refresh tokens rotated, replays revoking their grant. */
export function createTokenService(deps: TokenServiceDeps) {
  const invalidGrant = (why: string) => new OauthTokenError('invalid_grant', why);

  /**
   * A replayed code or refresh token (`replay`), or a refresh token its client revoked: the grant
   * goes, and with it every token it issued. A replay that deleted the grant is audited, once: a
   * grant already gone is not revoked again.
   */
  const revokeGrant = async (key: GrantKey, what: string, replay?: Replay) => {
    deps.logger.warn('oauth grant revoked', { grant_id: key.grant_id, reason: what });
    const grant = replay && deps.audit ? await getGrant(deps.table, key) : undefined;
    try {
      await deps.table.transact([grantDeletedOp(key)]);
    } catch (err) {
      if (!(err instanceof ConditionFailedError)) throw err;
      return;
    }
    if (!replay || !deps.audit) return;
    await deps.audit({
      tenantId: key.tenant_id,
      actor: { type: 'oauth_client', id: replay.clientId, label: grant?.client_name ?? replay.clientId },
      action: 'oauth_grant.revoke',
      target: { type: 'oauth_grant', id: key.grant_id },
      summary: `${what}: the grant and its tokens were revoked`,
      sourceIp: replay.sourceIp,
    });
  };

  /** A new access and refresh token of `grant` with `scopes`, written with `ops` in one transaction. */
  const issue = async (
    grant: Grant,
    scopes: Scope[],
    ops: WriteOp[],
    replayOf: string,
    sourceIp: string | undefined,
  ) => {
    const now = deps.clock.now();
    const access = newSecret(ACCESS_TOKEN_PREFIX);
    const refresh = newSecret(REFRESH_TOKEN_PREFIX);
    const common = {
      tenant_id: grant.tenant_id,
      user_id: grant.user_id,
      grant_id: grant.grant_id,
      client_id: grant.client_id,
      scopes,
    };
    try {
      await deps.table.transact([
        ...ops,
        accessTokenPutOp({
          ...common,
          hash: secretHash(access),
          client_name: grant.client_name,
          expires_at: isoTime(now + ACCESS_TOKEN_TTL_MS),
        }),
        refreshTokenPutOp({
          ...common,
          hash: secretHash(refresh),
          expires_at: isoTime(now + REFRESH_TOKEN_TTL_MS),
        }),
      ]);
    } catch (err) {
      // Two exchanges of one code (or refresh token) racing: the loser is a replay.
      if (err instanceof ConditionFailedError) {
        await revokeGrant(grant, `${replayOf} replayed`, { clientId: grant.client_id, sourceIp });
        throw invalidGrant(`the ${replayOf} was already used`);
      }
      throw err;
    }
    return {
      access_token: access,
      token_type: 'Bearer' as const,
      expires_in: ACCESS_TOKEN_TTL_MS / 1000,
      refresh_token: refresh,
      scope: scopeText(scopes),
    };
  };

  const liveGrant = async (key: GrantKey) => {
    const grant = await getGrant(deps.table, key);
    if (!grant) throw invalidGrant('the grant was revoked');
    return grant;
  };

  return {
    async exchangeCode(p: {
      code: string;
      client_id: string;
      redirect_uri: string;
      code_verifier: string;
      sourceIp?: string | undefined;
    }) {
      const hash = secretHash(p.code);
      const code = await getCode(deps.table, hash);
      if (!code) throw invalidGrant('unknown authorization code');
      if (code.used_at !== undefined) {
        await revokeGrant(code, 'authorization code replayed', {
          clientId: code.client_id,
          sourceIp: p.sourceIp,
        });
        throw invalidGrant('the authorization code was already used');
      }
      if (Date.parse(code.expires_at) <= deps.clock.now())
        throw invalidGrant('the authorization code expired');
      if (code.client_id !== p.client_id) throw invalidGrant('the code was issued to another client');
      if (code.redirect_uri !== p.redirect_uri)
        throw invalidGrant('redirect_uri differs from the authorization request');
      if (!pkceMatches(p.code_verifier, code.code_challenge))
        throw invalidGrant('code_verifier does not match');
      const grant = await liveGrant(code);
      const used = [codeUsedOp(hash, isoTime(deps.clock.now()))];
      return issue(grant, code.scopes, used, 'authorization code', p.sourceIp);
    },

    async refresh(p: {
      refresh_token: string;
      client_id: string;
      scope?: string | undefined;
      sourceIp?: string | undefined;
    }) {
      const hash = secretHash(p.refresh_token);
      const token = await getRefreshToken(deps.table, hash);
      if (!token || Date.parse(token.expires_at) <= deps.clock.now())
        throw invalidGrant('unknown or expired refresh token');
      if (token.client_id !== p.client_id)
        throw invalidGrant('the refresh token was issued to another client');
      if (token.rotated_at !== undefined) {
        await revokeGrant(token, 'refresh token replayed', {
          clientId: token.client_id,
          sourceIp: p.sourceIp,
        });
        throw invalidGrant('the refresh token was already used');
      }
      const grant = await liveGrant(token);
      // A refresh may narrow the scopes (RFC 6749 6), never widen them; nor past the grant's now.
      const asked = p.scope === undefined ? token.scopes : parseScopeParam(p.scope);
      if (!asked?.every((s) => token.scopes.includes(s)))
        throw new OauthTokenError('invalid_scope', 'a refresh may only narrow the scopes');
      const scopes = asked.filter((s) => grant.scopes.includes(s));
      const rotated = [refreshRotatedOp(hash, isoTime(deps.clock.now()))];
      return issue(grant, scopes, rotated, 'refresh token', p.sourceIp);
    },

    /**
     * RFC 7009: an access token is deleted; a refresh token revokes its grant (and so every token
     * of it). Unknown tokens and other clients' tokens change nothing (the answer is the same).
     */
    async revoke(p: { token: string; client_id: string }) {
      const hash = secretHash(p.token);
      const access = await getAccessToken(deps.table, hash);
      if (access && access.client_id === p.client_id) {
        await deps.table.transact([accessTokenDeletedOp(hash)]);
        return;
      }
      const refresh = await getRefreshToken(deps.table, hash);
      if (refresh && refresh.client_id === p.client_id) {
        await deps.table.transact([refreshTokenDeletedOp(hash)]);
        await revokeGrant(refresh, 'refresh token revoked by its client');
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
