import { auditRoutes } from '../audit/audit-routes.ts';
import { createAuditService } from '../audit/audit-service.ts';
import { createActorLookup, createAuditSink } from '../audit/audit-sink.ts';
import { createEventAudit } from '../audit/event-audit.ts';
import { createMcpAudit } from '../audit/mcp-audit.ts';
import { createAuthenticator } from '../auth/authenticate.ts';
import { createRateLimitGuard } from '../auth/limits.ts';
import { getUser } from '../auth/records.ts';
import { authRoutes, teamRoutes } from '../auth/routes.ts';
import { createKeyService, createKeyStore, createTeamService, createTeamStore } from '../auth/services.ts';
import type { TenantStore } from '../auth/tenants.ts';
import type { EgressSettings } from '../egress/egress.ts';
import { hostPolicyOf } from '../http/origin-policy.ts';
import { createCsrfCheck, sessionCookieOf } from '../http/policies.ts';
import type { Route, WriteSink } from '../http/types.ts';
import { composeOauth } from '../oauth/compose.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import { createMemoryRateLimiter, type RateLimiter } from '../platform/rate-limiter.ts';
import type { EmailTransport } from '../providers/email.ts';
import { composeSso } from '../sso/compose.ts';
import { secureRequestOf } from '../sso/login-cookie.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { getCredential } from './credential-items.ts';
import { memberCredentialHooks } from './member-credentials.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.ts';
import { createPasswordLogin } from './password-login.ts';
import { checkPasswordPolicy } from './password-policy.ts';
import { createPasswordResetService, type PasswordResetDeps } from './reset/password-reset.ts';
import { passwordResetRoutes } from './reset/password-reset-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { createCodeLock } from './sign-in/code-lock.ts';
import { createSessionService } from './sign-in/session-service.ts';
import { createSignInAlarm } from './sign-in/sign-in-alarm.ts';
import { hasSecondFactor } from './totp/second-factor.ts';
import { totpRoutes } from './totp/totp-routes.ts';
import { createTotpService, type TotpServiceDeps } from './totp/totp-service.ts';

export interface PeopleDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  tenants: TenantStore;
  rateLimiter?: RateLimiter | undefined;
  /** The app's one cursor seal (paged reads: the audit log). */
  cursors: CursorSeal;
  /** Outbound trust and resolution: OAuth client metadata documents and the SSO provider, through the SSRF guard. */
  egress?: EgressSettings | undefined;
  /** How password reset links are e-mailed: SMTP locally, SES in the cloud (CoreDeps `email`, lib/app.ts). */
  email?: EmailTransport | undefined;
}

/**
 * Who may call, and how they prove it (docs/auth.md): API keys, the console's sessions, OAuth
 * tokens of MCP clients; the rate limits every caller passes; the team, sign-in, SSO, OAuth and
 * audit routes; and the audit log the router tells of every write.
 */
export function composePeople(deps: PeopleDeps) {
  const keys = createKeyStore(deps.table);
  const team = createTeamStore(deps.table);
  const keyService = createKeyService({ table: deps.table, keys, team, clock: deps.clock });
  const sessions = createSessionService({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    tenants: deps.tenants,
    settings: deps.config.people,
    runtime: deps.config.runtime,
    publicUrl: deps.config.publicUrl,
  });
  const limiter = deps.rateLimiter ?? createMemoryRateLimiter({ clock: deps.clock });
  const rateLimit = createRateLimitGuard({
    limiter,
    instanceLimiter: createMemoryRateLimiter({ clock: deps.clock }),
    config: deps.config,
    logger: deps.logger,
  });
  const hosts = hostPolicyOf(deps.config);
  // The audit log (lib/audit): the router's sink, the MCP tool recorder, events no reply names
  // (OAuth replays, failed sign-ins past a limit), GET /v1/audit.
  const retentionDays = async (tenantId: string) =>
    (await deps.tenants.getTenant(tenantId))?.retention_days ?? 30;
  const auditEvent = createEventAudit({ ...deps, retentionDays });
  const oauth = composeOauth({
    table: deps.table,
    clock: deps.clock,
    logger: deps.logger,
    tenants: deps.tenants,
    hosts,
    limits: rateLimit,
    egressAllow: deps.config.egressAllow,
    egress: deps.egress,
    audit: auditEvent,
  });
  const authenticate = createAuthenticator({
    keys,
    tenants: deps.tenants,
    clock: deps.clock,
    logger: deps.logger,
    sessions: sessions.resolve,
    accessTokens: oauth.accessTokens,
  });
  const verifyCsrf = createCsrfCheck(hosts);
  const actorOf = createActorLookup(deps.table);
  const audit: WriteSink = createAuditSink({ table: deps.table, clock: deps.clock, retentionDays }, actorOf);
  const mcpAudit = createMcpAudit({ ...deps, actorOf, retentionDays });
  const { cursors } = deps;
  const sso = composeSso({
    ...deps,
    hosts,
    startSession: sessions.start,
  });
  const mail = { transport: deps.email, from: deps.config.emailFrom, publicUrl: deps.config.publicUrl };
  // Wrong codes past its limit lock the second factor to known browsers and an e-mailed link.
  const codeLock = createCodeLock({ ...deps, limiter, mail });
  const login = createPasswordLogin({
    table: deps.table,
    tenants: deps.tenants,
    sessions,
    limits: rateLimit,
    limiter,
    failuresPerMinute: deps.config.authFailuresPerMinute,
    clock: deps.clock,
    logger: deps.logger,
    alarm: createSignInAlarm({
      ...deps,
      limiter,
      limit: deps.config.authFailuresPerMinute,
      mail: { transport: deps.email, from: deps.config.emailFrom },
      audit: auditEvent,
    }),
    passwordAllowed: sso.passwordAllowed,
    secondFactor: codeLock.check,
  });
  // Two-factor authentication (TOTP, recovery codes) and password reset by e-mail (docs/auth.md).
  const factorDeps: TotpServiceDeps & PasswordResetDeps = {
    ...deps,
    limiter,
    tenant: (id) => deps.tenants.getTenant(id),
    userEmail: async (tenantId, userId) => (await getUser(deps.table, tenantId, userId))?.email,
    passwords: { hash: hashPassword, policy: checkPasswordPolicy },
    revokeSessions: (tenantId, userId) => sessions.revokeAll(tenantId, userId),
    passwordAllowed: sso.passwordAllowed,
    mail,
  };
  const routes: Route[] = [
    ...auditRoutes({ audit: createAuditService({ table: deps.table, clock: deps.clock, cursors }) }),
    ...authRoutes({
      keyService,
      tenants: deps.tenants,
      totpEnabled: async (tenantId, userId) =>
        hasSecondFactor(await getCredential(deps.table, tenantId, userId)),
    }),
    ...sessionRoutes({
      sessions,
      login,
      passwords: { table: deps.table, clock: deps.clock, tenants: deps.tenants, sessions, limits: rateLimit },
      publicUrl: deps.config.publicUrl,
    }),
    ...teamRoutes({
      limits: rateLimit,
      signIn: (who, req) => sessions.start({ ...who, method: 'password', req }),
      publicUrl: deps.config.publicUrl,
      teamService: createTeamService({
        table: deps.table,
        team,
        keys,
        tenants: deps.tenants,
        clock: deps.clock,
        hooks: memberCredentialHooks({ clock: deps.clock, sessions }),
      }),
    }),
    ...oauth.routes,
    ...sso.routes,
    ...totpRoutes({ totp: createTotpService(factorDeps), limits: rateLimit }),
    ...passwordResetRoutes({ resets: createPasswordResetService(factorDeps), limits: rateLimit }),
  ];
  return {
    /** The shared rate limiter (a bulk call charges its own bucket in it). */
    limiter,
    keys,
    keyService,
    sessions,
    authenticate,
    rateLimit,
    verifyCsrf,
    audit,
    mcpAudit,
    routes,
    passwordAllowed: sso.passwordAllowed,
    /** A status page's password (lib/status-pages/access): people's hashing, the sign-in limits, the cookie's Secure rule. */
    pageAccess: {
      limits: rateLimit,
      passwords: { hash: hashPassword, verify: verifyPassword, dummyHash: DUMMY_PASSWORD_HASH },
      secureRequest: secureRequestOf(deps.config.runtime, deps.config.publicUrl),
      // An SSO page's reader: the console session of the request's cookie (a Bearer key is no reader).
      sessionOf: async (headers: Record<string, string>) => {
        const raw = sessionCookieOf(headers);
        if (raw === undefined) return undefined;
        const principal = await sessions.resolve(raw).catch(() => undefined);
        return principal?.signedInWith === undefined
          ? undefined
          : {
              tenantId: principal.tenantId,
              userId: principal.userId,
              sessionId: principal.keyId,
              signedInWith: principal.signedInWith,
            };
      },
      // An SSO page's reader on its custom domain: the session its cookie names, read every time.
      sessionById: async (ref: { tenantId: string; userId: string; sessionId: string }) => {
        const record = await sessions.byId(ref.tenantId, ref.userId, ref.sessionId);
        return record === undefined
          ? undefined
          : {
              tenantId: record.tenant_id,
              userId: record.user_id,
              sessionId: record.id,
              signedInWith: record.method,
              expiresAtMs: Date.parse(record.expires_at),
            };
      },
      ssoConfigured: sso.configured,
    },
  };
}
