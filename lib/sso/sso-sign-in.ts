import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { TenantStore } from '../auth/tenants.ts';
import { type HostPolicy, isAllowedHost, requestOrigin } from '../http/origin-policy.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Table } from '../store/table.ts';
import { parseEmailAddress } from './email-address.ts';
import { clearLoginCookie, isBoundBrowser, newLoginBinding, type SecureRequest } from './login-cookie.ts';
import type { OidcClients } from './oidc-client.ts';
import { findSsoSlug, getSsoSettings, putSsoLogin, type SsoSettings, takeSsoLogin } from './sso-items.ts';
import { joinTeam, type SsoMember } from './sso-members.ts';
import { CALLBACK_PATH } from './sso-settings.ts';

/** What a sign-in knows of the request (lib/people/sign-in/session-service.ts's SignInRequest). */
export interface SignInRequest {
  headers: Record<string, string>;
  sourceIp?: string | undefined;
}

/** The session service's start (lib/people/sign-in/session-service.ts), injected: a new session and its cookie. */
export type StartSession = (input: {
  tenantId: string;
  userId: string;
  method: 'password' | 'sso';
  req: SignInRequest;
}) => Promise<{ sessionId: string; setCookie: string }>;

export interface SsoSignInDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  tenants: Pick<TenantStore, 'getTenant'>;
  clients: OidcClients;
  hosts: HostPolicy;
  /** Whether the binding cookie goes with `Secure` (login-cookie.ts secureRequestOf). */
  secureRequest: SecureRequest;
  startSession: StartSession;
}

/**
 * Why a sign-in went back to the sign-in page (`/sign-in?error=<code>`): short codes the console
 * explains, never the provider's own text.
 */
export type SsoFailure =
  | 'sso_not_configured'
  | 'invalid_next'
  | 'unknown_host'
  | 'provider_unavailable'
  | 'provider_denied'
  | 'invalid_state'
  | 'token_refused'
  | 'email_unverified'
  | 'invalid_email'
  | 'domain_not_allowed'
  | 'account_disabled';

export class SsoRefusal extends Error {
  override readonly name = 'SsoRefusal';
  readonly code: SsoFailure;
  constructor(code: SsoFailure, options?: { cause?: unknown }) {
    super(`SSO sign-in refused: ${code}`, options);
    this.code = code;
  }
}

const LOGIN_TTL_MS = 10 * 60_000;
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * A path on Vigil to land on after sign-in, or undefined when `next` could lead elsewhere: it
 * must start with one `/` (not `//` nor `/\`, which browsers read as another host) and hold no
 * control characters or backslashes.
 */
function safeNext(next: string | undefined): string | undefined {
  if (next === undefined || next === '') return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return undefined;
  if (next.includes('\\') || [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return undefined;
  // Resolved against a placeholder origin it must stay there.
  const resolved = new URL(next, 'https://vigil.invalid');
  return resolved.origin === 'https://vigil.invalid' ? next : undefined;
}

/** SSO sign-in (docs/auth.md "SSO with OIDC"): authorization code with PKCE, state and nonce. */
export function createSsoSignIn(deps: SsoSignInDeps) {
  const { table, clock } = deps;

  /** Vigil's origin as the browser sees it: VIGIL_PUBLIC_URL, else the request's own on an allowed Host. */
  const originOf = (req: SignInRequest & { platformHost?: string | undefined }) => {
    if (deps.hosts.publicUrl !== undefined) return new URL(deps.hosts.publicUrl).origin;
    if (!isAllowedHost(req.headers, deps.hosts, req.platformHost)) throw new SsoRefusal('unknown_host');
    const host = req.headers.host ?? req.platformHost;
    const origin = host === undefined ? undefined : requestOrigin({ ...req.headers, host });
    if (origin === undefined) throw new SsoRefusal('unknown_host');
    return origin;
  };

  const settingsOf = async (tenantId: string): Promise<SsoSettings> => {
    const [settings, tenant] = await Promise.all([
      getSsoSettings(table, tenantId),
      deps.tenants.getTenant(tenantId),
    ]);
    if (!settings || !tenant) throw new SsoRefusal('sso_not_configured');
    if (tenant.disabled) throw new SsoRefusal('account_disabled');
    return settings;
  };

  const configurationOf = async (settings: SsoSettings) => {
    try {
      return await deps.clients.configuration(settings);
    } catch (err) {
      deps.logger.warn('SSO provider discovery failed', {
        tenant_id: settings.tenant_id,
        err_name: errName(err),
      });
      throw new SsoRefusal('provider_unavailable', { cause: err });
    }
  };

  return {
    /**
     * The provider's authorization URL for the tenant (its id or SSO slug), and the Set-Cookie
     * binding the pending login (kept server-side) to this browser.
     */
    async start(
      input: { tenant: string; next?: string | undefined },
      req: SignInRequest & { platformHost?: string | undefined },
    ): Promise<{ location: string; setCookie: string }> {
      const next = safeNext(input.next);
      if (next === undefined) throw new SsoRefusal('invalid_next');
      const tenantId = input.tenant.startsWith('tnt_')
        ? input.tenant
        : await findSsoSlug(table, input.tenant);
      if (tenantId === undefined) throw new SsoRefusal('sso_not_configured');
      const settings = await settingsOf(tenantId);
      const redirectUri = `${originOf(req)}${CALLBACK_PATH}`;
      const config = await configurationOf(settings);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const binding = newLoginBinding(LOGIN_TTL_MS / 1000, deps.secureRequest(req.headers));
      await putSsoLogin(table, {
        state_hash: sha256(state),
        tenant_id: tenantId,
        nonce,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        next,
        browser_hash: binding.hash,
        expires_at: isoTime(clock.now() + LOGIN_TTL_MS),
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { location: url.href, setCookie: binding.setCookie };
    },

    /** The Set-Cookie that clears the browser's binding, sent with every callback's answer. */
    clearCookie: (req: SignInRequest) => clearLoginCookie(deps.secureRequest(req.headers)),

    /**
     * The provider's answer: the pending login consumed (once) and refused unless this browser
     * started it (its binding cookie), the code exchanged and the ID
     * token checked (issuer, audience, nonce) by openid-client, then the member found or created
     * and a session started.
     */
    async callback(
      query: {
        state?: string | undefined;
        code?: string | undefined;
        error?: string | undefined;
        iss?: string | undefined;
      },
      req: SignInRequest,
    ): Promise<{ location: string; setCookie: string; member: SsoMember }> {
      if (query.state === undefined) throw new SsoRefusal('invalid_state');
      const login = await takeSsoLogin(table, sha256(query.state), isoTime(clock.now()));
      if (!login) throw new SsoRefusal('invalid_state');
      // Login CSRF: another browser's callback URL (an attacker's own sign-in) is consumed, not used.
      if (!isBoundBrowser(req.headers, login.browser_hash)) {
        deps.logger.info('SSO callback from a browser that did not start it', { tenant_id: login.tenant_id });
        throw new SsoRefusal('invalid_state');
      }
      if (query.error !== undefined) throw new SsoRefusal('provider_denied');
      const settings = await settingsOf(login.tenant_id);
      const config = await configurationOf(settings);
      const current = new URL(login.redirect_uri);
      for (const name of ['code', 'state', 'iss'] as const) {
        const value = query[name];
        if (value !== undefined) current.searchParams.set(name, value);
      }
      let claims: Record<string, unknown>;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: login.code_verifier,
          expectedState: query.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (!idToken) throw new SsoRefusal('token_refused');
        // Providers that keep the scope's claims out of the ID token answer them at userinfo
        // (for the same subject: openid-client checks `sub`).
        claims =
          idToken.email === undefined
            ? { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken }
            : idToken;
      } catch (err) {
        deps.logger.warn('SSO code exchange refused', { tenant_id: login.tenant_id, err_name: errName(err) });
        throw new SsoRefusal('token_refused', { cause: err });
      }
      const claimed = typeof claims.email === 'string' ? claims.email.trim() : '';
      const verified = claims.email_verified === true || claims.email_verified === 'true';
      if (claimed === '' || !verified) throw new SsoRefusal('email_unverified');
      const address = parseEmailAddress(claimed);
      if (address === undefined) throw new SsoRefusal('invalid_email');
      const { email, domain } = address;
      if (!settings.email_domains.includes(domain)) throw new SsoRefusal('domain_not_allowed');
      const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : email;
      const member = await joinTeam({ table, clock }, settings, { email, name });
      if (member.disabled) throw new SsoRefusal('account_disabled');
      const session = await deps.startSession({
        tenantId: login.tenant_id,
        userId: member.user.id,
        method: 'sso',
        req,
      });
      return { location: login.next, setCookie: session.setCookie, member };
    },
  };
}

export type SsoSignIn = ReturnType<typeof createSsoSignIn>;

/** An error's class name for the logs: provider answers may echo what they were sent. */
function errName(err: unknown): string {
  if (err instanceof Error)
    return 'code' in err && typeof err.code === 'string' ? `${err.name} ${err.code}` : err.name;
  return typeof err;
}
