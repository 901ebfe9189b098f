import { grantableScopes, scopeText, sortScopes } from '../domain/formats.ts';
import type { Principal, Scope } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { type Grant, grantPutOp, listGrants } from './grant-items.ts';
import {
  type AuthorizationRequest,
  authorizationRequestClaimOp,
  authorizationRequestDecidedOp,
  getAuthorizationRequest,
} from './request-items.ts';
import { CODE_PREFIX, newSecret, secretHash } from './secrets.ts';
import { codePutOp } from './token-items.ts';

/** An authorization code lives 60 s (OAuth 2.1 recommends a short life). */
const CODE_TTL_MS = 60_000;

export interface ConsentDeps {
  table: Table;
  clock: Clock;
}

/** What the caller may grant: its role's scopes, only `read` for a read-only key or a viewer. */
export function scopesFor(principal: Principal): Scope[] {
  if (principal.credential === 'oauth')
    throw new ForbiddenError('an OAuth token cannot approve OAuth clients: sign in to the console');
  return principal.readOnly ? ['read'] : grantableScopes(principal.role);
}

/** The redirect URI with the answer's parameters added (its own query kept). */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The consent page's decisions: show a pending request, approve it (a grant and a code) or deny it. */
export function createConsent(deps: ConsentDeps) {
  /** The pending request, claimed for `principal` (another person's is not found). */
  const pending = async (principal: Principal, requestId: string): Promise<AuthorizationRequest> => {
    const request = await getAuthorizationRequest(deps.table, requestId);
    const notFound = new NotFoundError('authorization request');
    if (!request || Date.parse(request.expires_at) <= deps.clock.now()) throw notFound;
    if (request.claimed_user_id === principal.userId && request.claimed_tenant_id === principal.tenantId)
      return request;
    try {
      await deps.table.update(authorizationRequestClaimOp(requestId, principal.tenantId, principal.userId));
    } catch (err) {
      if (err instanceof ConditionFailedError) throw notFound;
      throw err;
    }
    return request;
  };

  /** The person's grant for the client, updated to `scopes`, or a new one. */
  const grantFor = async (principal: Principal, request: AuthorizationRequest, scopes: Scope[]) => {
    const existing = (await listGrants(deps.table, principal.tenantId, principal.userId)).find(
      (g) => g.client_id === request.client_id,
    );
    const now = deps.clock.now();
    const grant: Grant = existing
      ? { ...existing, scopes, client_name: request.client_name }
      : {
          tenant_id: principal.tenantId,
          user_id: principal.userId,
          grant_id: newId('ogr', now),
          client_id: request.client_id,
          client_name: request.client_name,
          scopes,
          created_at: isoTime(now),
        };
    return grant;
  };

  return {
    async show(principal: Principal, requestId: string) {
      const grantable = scopesFor(principal);
      const request = await pending(principal, requestId);
      return { request, grantable: request.scopes.filter((s) => grantable.includes(s)) };
    },

    /**
     * Decides a request once (a second decision finds it gone: 404). Approval grants the asked
     * scopes (or the subset chosen) capped by what the person may grant, and issues a code.
     */
    async decide(principal: Principal, requestId: string, approve: boolean, chosen?: Scope[]) {
      const grantable = scopesFor(principal);
      const request = await pending(principal, requestId);
      if (chosen && !chosen.every((s) => request.scopes.includes(s)))
        throw new ValidationError('scopes may only narrow what the client asked for', [
          { path: 'scopes', message: `the client asked for: ${scopeText(request.scopes)}` },
        ]);
      const scopes = sortScopes((chosen ?? request.scopes).filter((s) => grantable.includes(s)));
      const answer = (params: Record<string, string | undefined>) =>
        redirectWith(request.redirect_uri, { ...params, state: request.state });
      const decided = async (ops: Parameters<Table['transact']>[0]) => {
        try {
          await deps.table.transact([
            authorizationRequestDecidedOp(requestId, principal.tenantId, principal.userId),
            ...ops,
          ]);
        } catch (err) {
          if (err instanceof ConditionFailedError) throw new NotFoundError('authorization request');
          throw err;
        }
      };
      if (!approve || scopes.length === 0) {
        await decided([]);
        const error = approve ? 'invalid_scope' : 'access_denied';
        return { redirect_to: answer({ error }), request, grant: undefined, scopes };
      }
      const grant = await grantFor(principal, request, scopes);
      const code = newSecret(CODE_PREFIX);
      const now = deps.clock.now();
      await decided([
        grantPutOp(grant),
        codePutOp({
          hash: secretHash(code),
          tenant_id: grant.tenant_id,
          user_id: grant.user_id,
          grant_id: grant.grant_id,
          client_id: request.client_id,
          scopes,
          redirect_uri: request.redirect_uri,
          code_challenge: request.code_challenge,
          ...(request.resource ? { resource: request.resource } : {}),
          expires_at: isoTime(now + CODE_TTL_MS),
        }),
      ]);
      return { redirect_to: answer({ code }), request, grant, scopes };
    },
  };
}

export type Consent = ReturnType<typeof createConsent>;
