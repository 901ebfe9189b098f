/**
 * Who is calling, with which role: resolved from the API key by lib/auth on every request and
 * handed by the HTTP layer to every route. Here, below both, so that neither imports the other
 * for it (lib/auth builds on lib/http, never the reverse).
 */

/** What an API key's user may do in its team: admins also manage members and keys. */
export type Role = 'admin' | 'member';

/** Who is calling: resolved from the API key on every request. */
export interface Principal {
  tenantId: string;
  userId: string;
  keyId: string;
  role: Role;
  readOnly: boolean;
}
