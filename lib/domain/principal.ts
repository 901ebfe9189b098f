/**
 * Who is calling, with which role: resolved from the API key by lib/auth on every request and
 * handed by the HTTP layer to every route. Here, below both, so that neither imports the other
 * for it (lib/auth builds on lib/http, never the reverse).
 */

/**
 * What a user may do in their team: admins also manage members, keys and settings; members write;
 * viewers (read-only people) get what read-only keys get.
 */
export type Role = 'admin' | 'member' | 'viewer';

export const ROLES = ['admin', 'member', 'viewer'] as const;

/** How the caller proved who it is: an API key, a console session cookie, or an OAuth access token (an MCP client). */
type CredentialKind = 'key' | 'session' | 'oauth';

/** OAuth scopes an MCP client may be granted (docs/auth.md "OAuth for MCP"). */
export type Scope = 'read' | 'write' | 'admin';

/** Who did something, as the audit log names them (DECISIONS.md "People (wave 4)"). */
export interface Actor {
  type: 'user' | 'key' | 'oauth_client' | 'agent' | 'operator' | 'anonymous' | 'ping_key';
  id: string;
  /**
   * A key's label and prefix, a person's e-mail, an OAuth client's name, an anonymous caller's
   * address, a ping key's prefix (what `?create=1` made).
   */
  label: string;
}

/** Who is calling: resolved from the API key, session cookie or OAuth token on every request. */
export interface Principal {
  tenantId: string;
  userId: string;
  /** The credential's id: an API key's (`key_…`), a session's (`ses_…`), an OAuth grant's (`ogr_…`); its rate-limit bucket. */
  keyId: string;
  role: Role;
  /** Read-only keys, viewers, and OAuth tokens without the `write` scope. */
  readOnly: boolean;
  /** Default 'key'. */
  credential?: CredentialKind;
  /** Who, for the audit log; default derived from the key (lib/audit). */
  actor?: Actor;
  /** A session's CSRF token: cookie-authenticated writes must send it as `X-CSRF-Token`. */
  csrfToken?: string;
  /** An OAuth token's scopes (the MCP tools it lists follow them). */
  scopes?: Scope[];
  /** A console session's sign-in: with a password or through the tenant's SSO. */
  signedInWith?: 'password' | 'sso';
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

/** Something that happened without a write the router saw (a grant revoked on a replay, failed sign-ins past a limit), for the audit log. */
export interface AuditEvent {
  tenantId: string;
  actor: Actor;
  action: string;
  target: { type: string; id: string };
  /** Written as given: words and counts, never a secret. */
  summary: string;
  sourceIp?: string | undefined;
}
