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

/**
 * Who is calling `/v1/agent/*`: a location (a private agent, a region's probe stack), resolved
 * from its location key (`vlk_…`) on every request. It reaches only its own location's work.
 */
export interface LocationPrincipal {
  tenantId: string;
  locationId: string;
  /** The location's name (`office`, `eu-west-1`), fixed at creation. */
  locationName: string;
  /** The location key's id (`lky_…`): its rate-limit bucket and its line in the logs. */
  keyId: string;
}
