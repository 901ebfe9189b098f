import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRateLimitGuard } from '../../lib/auth/limits/rate-limit.ts';
import { createTenantStore } from '../../lib/auth/tenants.ts';
import { type Credential, credentialPutOps } from '../../lib/people/credential-items.ts';
import { createPasswordLogin, type SecondFactorVerdict } from '../../lib/people/password-login.ts';
import { withPassword } from '../../lib/people/sign-in/password-change.ts';
import { createSessionService } from '../../lib/people/sign-in/session-service.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../lib/platform/errors.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createMemoryRateLimiter } from '../../lib/platform/rate-limiter.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';

/**
 * The sign-in's injected steps (wired at composition to the SSO and second-factor features): the
 * team's SSO rule and the second factor come after the password, and the team is picked by
 * `tenant` or by the password that matches. On a real SQLite table.
 */

const EMAIL = 'grace@example.com';
const req = { headers: {}, sourceIp: '192.0.2.1' };

describe('password sign-in with the SSO rule and a second factor', () => {
  let table: SqliteTable;
  const clock = createFakeClock();

  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
  });
  afterEach(async () => {
    await table.close();
  });

  /** A team whose admin is EMAIL, with `password`. */
  async function team(name: string, password: string) {
    const tenants = createTenantStore(table, clock);
    const { tenant, user } = await tenants.createTenant({ name, email: EMAIL });
    const who = { tenant_id: tenant.id, user_id: user.id, email: EMAIL };
    const { record, condition } = await withPassword(undefined, who, password, clock.now());
    await table.transact(credentialPutOps(record, condition));
    return { tenantId: tenant.id, userId: user.id };
  }

  function login(options: {
    passwordAllowed?: (tenantId: string) => Promise<boolean>;
    secondFactor?: (credential: Credential, code: string | undefined) => Promise<SecondFactorVerdict>;
  }) {
    const tenants = createTenantStore(table, clock);
    const limiter = createMemoryRateLimiter({ clock });
    const config = {
      rateLimit: undefined,
      tenantRateLimit: undefined,
      authFailuresPerMinute: 0,
      authFailuresPerAddressPerMinute: 0,
    };
    const settings = { sessionIdleMs: 3_600_000, sessionMaxMs: 86_400_000 };
    const sessions = createSessionService({
      table,
      clock,
      logger: silentLogger,
      tenants,
      settings,
      runtime: 'local',
      publicUrl: undefined,
    });
    const limits = createRateLimitGuard({ limiter, config, logger: silentLogger });
    return {
      sessions,
      login: createPasswordLogin({
        table,
        tenants,
        sessions,
        limits,
        limiter,
        failuresPerMinute: 0,
        clock,
        logger: silentLogger,
        ...options,
      }),
    };
  }

  const signIn = (l: ReturnType<typeof login>, body: Record<string, unknown>) =>
    l.login.signIn(req, () => ({ email: EMAIL, password: 'first team password', ...body }) as never);

  it('refuses the password of a team that signs in with SSO, only once the password is right', async () => {
    const first = await team('First', 'first team password');
    const asked: string[] = [];
    const l = login({
      passwordAllowed: async (tenantId) => {
        asked.push(tenantId);
        return false;
      },
    });
    await expect(signIn(l, { password: 'wrong password here' })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(asked).toEqual([]);
    const refused = signIn(l, {});
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refused).rejects.toThrow('this team signs in with SSO');
    expect(asked).toEqual([first.tenantId]);
  });

  it('asks for the second factor, refuses a wrong code, and signs in with a right one', async () => {
    const first = await team('First', 'first team password');
    const seen: Array<string | undefined> = [];
    const l = login({
      secondFactor: async (credential, code) => {
        expect(credential.user_id).toBe(first.userId);
        seen.push(code);
        if (code === undefined) return 'required';
        return code === '123456' ? 'ok' : 'invalid';
      },
    });
    const details = async (body: Record<string, unknown>) => {
      const error = await signIn(l, body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).details;
    };
    expect((await details({}))?.[0]?.path).toBe('totp');
    expect((await details({ totp: '000000' }))?.[0]).toEqual({
      path: 'totp',
      message: 'the code is wrong or was used already',
    });
    const ok = await signIn(l, { totp: '123456' });
    expect(ok.setCookie).toMatch(/^vigil_session=vss_/);
    expect(ok.audit).toMatchObject({ tenantId: first.tenantId, action: 'session.create' });
    expect(seen).toEqual([undefined, '000000', '123456']);
  });

  it('picks the team by `tenant`, or the first whose password matches', async () => {
    const first = await team('First', 'first team password');
    const second = await team('Second', 'second team password');
    const l = login({});
    const resolveTenant = async (result: { setCookie: string }) => {
      const raw = /^vigil_session=([^;]+)/.exec(result.setCookie)?.[1] ?? '';
      return (await l.sessions.resolve(raw)).tenantId;
    };
    expect(await resolveTenant(await signIn(l, { password: 'second team password' }))).toBe(second.tenantId);
    expect(await resolveTenant(await signIn(l, {}))).toBe(first.tenantId);
    await expect(signIn(l, { tenant: second.tenantId })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(
      await resolveTenant(await signIn(l, { tenant: second.tenantId, password: 'second team password' })),
    ).toBe(second.tenantId);
  });
});
