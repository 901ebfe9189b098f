import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRateLimitGuard } from '../../lib/auth/limits/rate-limit.ts';
import { createTenantStore } from '../../lib/auth/tenants.ts';
import { parseEmailSender } from '../../lib/domain/formats/email-address.ts';
import { credentialPutOps } from '../../lib/people/credential-items.ts';
import { createPasswordLogin } from '../../lib/people/password-login.ts';
import type { OutgoingMail, RecordAudit } from '../../lib/people/ports.ts';
import { withPassword } from '../../lib/people/sign-in/password-change.ts';
import { createSessionService } from '../../lib/people/sign-in/session-service.ts';
import { createSignInAlarm } from '../../lib/people/sign-in/sign-in-alarm.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { RateLimitedError, UnauthorizedError } from '../../lib/platform/errors.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { createMemoryRateLimiter } from '../../lib/platform/rate-limiter.ts';
import { createSqliteTable, openSqliteDatabase, type SqliteTable } from '../../lib/sqlite/sqlite-table.ts';
import { join, uniqueEmail } from '../auth/team-helpers.ts';
import { type ApiHarness, startLocalHarness } from '../support/api-harness.ts';
import { GOOD_PASSWORD, setPassword, signIn } from './session-helpers.ts';

/**
 * Failed sign-ins at one account lock nobody out, in the local runtime: its SQLite table and
 * in-memory limiter, each attempt from its own address (the local server sees one socket address
 * per test, so the sign-in is driven directly; the cloud over HTTP: sign-in-lockout.test.ts).
 */

const EMAIL = 'ada@example.com';
const WRONG = 'not the password 41';

describe('failed sign-ins at one account from many addresses (local runtime)', () => {
  let table: SqliteTable;
  const clock = createFakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
  let mails: OutgoingMail[];
  let audited: Parameters<RecordAudit>[0][];

  beforeEach(() => {
    table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
    mails = [];
    audited = [];
  });
  afterEach(async () => {
    await table.close();
  });

  async function rig() {
    const tenants = createTenantStore(table, clock);
    const { tenant, user } = await tenants.createTenant({ name: 'Team', email: EMAIL });
    const who = { tenant_id: tenant.id, user_id: user.id, email: EMAIL };
    const { record, condition } = await withPassword(undefined, who, GOOD_PASSWORD, clock.now());
    await table.transact(credentialPutOps(record, condition));
    const limiter = createMemoryRateLimiter({ clock });
    const config = {
      rateLimit: undefined,
      tenantRateLimit: undefined,
      authFailuresPerMinute: 3,
      authFailuresPerAddressPerMinute: 100,
    };
    const sessions = createSessionService({
      table,
      clock,
      logger: silentLogger,
      tenants,
      settings: { sessionIdleMs: 3_600_000, sessionMaxMs: 86_400_000 },
      runtime: 'local',
      publicUrl: undefined,
    });
    const alarm = createSignInAlarm({
      table,
      clock,
      logger: silentLogger,
      limiter,
      limit: 3,
      mail: {
        transport: {
          send: async (mail) => {
            mails.push(mail);
            return { ok: true, error: null };
          },
        },
        from: parseEmailSender('alerts@vigil.example.com'),
      },
      audit: async (event) => {
        audited.push(event);
      },
    });
    const login = createPasswordLogin({
      table,
      tenants,
      sessions,
      limits: createRateLimitGuard({ limiter, config, logger: silentLogger }),
      limiter,
      failuresPerMinute: 3,
      clock,
      logger: silentLogger,
      alarm,
    });
    return { userId: user.id, login };
  }

  const attempt = (l: Awaited<ReturnType<typeof rig>>, password: string, sourceIp: string, cookie?: string) =>
    l.login.signIn({ headers: cookie ? { cookie } : {}, sourceIp }, () => ({ email: EMAIL, password }));

  it('lets a browser that signed in before in, and slows other browsers down without refusing them', async () => {
    const l = await rig();
    const first = await attempt(l, GOOD_PASSWORD, '10.0.0.1');
    const device = /^vigil_device=vdv_\w{40}/.exec(first.deviceCookie)?.[0];
    expect(device).toBeDefined();
    for (let i = 1; i <= 12; i += 1)
      await expect(attempt(l, WRONG, `10.1.0.${i}`)).rejects.toBeInstanceOf(UnauthorizedError);
    const known = await attempt(l, GOOD_PASSWORD, '10.2.0.1', device);
    expect(known.deviceCookie.startsWith(`${device};`)).toBe(true);
    await expect(attempt(l, GOOD_PASSWORD, '10.2.0.2')).resolves.toMatchObject({ sessionId: /^ses_/ });
    const refused = await attempt(l, WRONG, '10.1.0.12').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    const wait = Number((refused as RateLimitedError).headers['Retry-After']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    clock.advance(wait * 1000);
    await expect(attempt(l, WRONG, '10.1.0.12')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('tells the person once an hour, by e-mail and in the audit log, never with the password', async () => {
    const l = await rig();
    for (let i = 1; i <= 6; i += 1) await attempt(l, WRONG, `10.3.0.${i % 3}`).catch(() => undefined);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual([EMAIL]);
    expect(mails[0]?.text).toContain('3 failed sign-ins from 3 addresses');
    expect(mails[0]?.text).not.toContain(WRONG);
    expect(mails[0]?.html).not.toContain(WRONG);
    expect(audited).toEqual([
      expect.objectContaining({
        actor: { type: 'anonymous', id: '10.3.0.0', label: 'unknown caller at 10.3.0.0' },
        action: 'session.failures',
        target: { type: 'user', id: l.userId },
      }),
    ]);
  });
});

describe('the device cookie (local runtime over HTTP)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startLocalHarness();
  });
  afterAll(async () => {
    await api.close();
  });

  it('sets a year-long HttpOnly device cookie for the sign-in path besides the session cookie', async () => {
    const joined = await join(api, api.adminKey, { email: uniqueEmail('device') });
    expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
    const res = await signIn(api, { email: joined.email, password: GOOD_PASSWORD });
    expect(res.status, res.text).toBe(204);
    expect(res.headers['set-cookie']).toMatch(
      /^vigil_session=vss_\w{40}; .*, vigil_device=vdv_\w{40}; Max-Age=31536000; Path=\/v1\/session; HttpOnly; SameSite=Strict$/,
    );
  });
});
