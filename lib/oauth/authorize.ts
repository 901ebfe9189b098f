import { parseScopeParam } from '../domain/formats.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { Table } from '../store/table.ts';
import type { Clients } from './clients.ts';
import { redirectWith } from './consent.ts';
import { authorizationRequestPutOp } from './request-items.ts';

/** A pending authorization request waits 10 minutes for the person's decision. */
const REQUEST_TTL_MS = 10 * 60_000;

/** The parameters of `GET /oauth/authorize`, as its route's schema parsed them. */
export interface AuthorizeQuery {
  response_type: 'code';
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: 'S256';
  scope?: string | undefined;
  state?: string | undefined;
  resource?: string | undefined;
}

export interface AuthorizeDeps {
  table: Table;
  clock: Clock;
  clients: Clients;
}

/**
 * Checks an authorization request and stores it for the consent page. An unknown client or a
 * redirect URI that is not exactly one it registered is a 400 here, never a redirect (no open
 * redirect); other problems go back to the client's redirect URI (RFC 6749 4.1.2.1). Answers
 * where to send the browser.
 */
export async function authorize(deps: AuthorizeDeps, q: AuthorizeQuery, origin: string): Promise<string> {
  const client = await deps.clients.resolve(q.client_id);
  if (!client)
    throw new ValidationError('unknown client', [
      {
        path: 'client_id',
        message: 'no client is registered with this id, or its metadata document did not pass',
      },
    ]);
  if (!client.redirect_uris.includes(q.redirect_uri))
    throw new ValidationError('redirect_uri is not one the client registered', [
      { path: 'redirect_uri', message: "must equal one of the client's registered redirect URIs exactly" },
    ]);
  const back = (error: string, description: string) =>
    redirectWith(q.redirect_uri, { error, error_description: description, state: q.state });
  const resource = `${origin}/v1/mcp`;
  if (q.resource !== undefined && q.resource !== resource)
    return back('invalid_target', `the only resource is ${resource}`);
  // No scope asked: the least, `read` (docs/auth.md).
  const scopes =
    q.scope === undefined || q.scope.trim() === '' ? ['read' as const] : parseScopeParam(q.scope);
  if (!scopes || scopes.length === 0) return back('invalid_scope', 'scopes are read, write and admin');
  const now = deps.clock.now();
  const requestId = newId('oar', now);
  await deps.table.transact([
    authorizationRequestPutOp({
      request_id: requestId,
      client_id: client.client_id,
      client_name: client.client_name,
      redirect_uri: q.redirect_uri,
      code_challenge: q.code_challenge,
      scopes,
      ...(q.state !== undefined ? { state: q.state } : {}),
      ...(q.resource !== undefined ? { resource: q.resource } : {}),
      created_at: isoTime(now),
      expires_at: isoTime(now + REQUEST_TTL_MS),
    }),
  ]);
  return `${origin}/consent?request=${requestId}`;
}
