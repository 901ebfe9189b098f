import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCredential } from '../../lib/people/credential-items.ts';
import { checkSecondFactor } from '../../lib/people/totp/second-factor.ts';
import { totpCode } from '../../lib/people/totp/totp.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { GOOD_PASSWORD, setPassword, signIn } from './session-helpers.ts';

/**
 * Two-factor authentication (issue 41): a user enrols a TOTP secret, confirms it with a first code
 * (getting ten recovery codes once), and from then on a sign-in's second factor is checked by
 * checkSecondFactor: required without a code, a code accepted once, a recovery code used once.
 * Both runtimes, over the API with the user's own key, on a test clock.
 */

const STEP_MS = 30_000;

describe.each(runtimes)('TOTP ($runtime runtime)', ({ start }) => {
  const clock = createFakeClock(Date.parse('2026-03-02T09:00:05.000Z'));
  let api: ApiHarness;

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  let teams = 0;
  /** A fresh team (its admin's e-mail its own): the admin's key, user id and e-mail. */
  async function person() {
    teams += 1;
    const { tenantId, key } = await api.createTenant(`Totp${teams}${Date.now()}`);
    const me = await api.request('GET', '/v1/me', { key });
    return { tenantId, key, userId: me.body.user.id as string, email: me.body.user.email as string };
  }

  const credentialOf = (p: { tenantId: string; userId: string }) =>
    getCredential(api.table, p.tenantId, p.userId);
  const check = async (p: { tenantId: string; userId: string }, code: string | undefined) =>
    checkSecondFactor({ table: api.table, clock }, await credentialOf(p), code);

  /** Enrols and confirms TOTP: the secret and the recovery codes. */
  async function turnOn(p: { key: string }) {
    const enrolled = await api.request('POST', '/v1/me/totp', { key: p.key });
    const secret: string = enrolled.body.secret;
    const confirmed = await api.request('POST', '/v1/me/totp/confirm', {
      key: p.key,
      body: { code: totpCode(secret, clock.now()) },
    });
    expect(confirmed.status).toBe(200);
    clock.advance(STEP_MS);
    return { secret, codes: confirmed.body.recovery_codes as string[] };
  }

  it('enrols a secret, replaces an unconfirmed one, and confirms with a code of the newest', async () => {
    const p = await person();
    const first = await api.request('POST', '/v1/me/totp', { key: p.key });
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Vigil:.+secret=[A-Z2-7]{32}/);
    expect(first.body.otpauth_url).toContain('digits=6');
    expect(first.body.otpauth_url).toContain('period=30');
    // Enrolled but unconfirmed: no second factor asked yet.
    expect(await check(p, undefined)).toBe('ok');
    expect((await api.request('GET', '/v1/me', { key: p.key })).body.totp_enabled).toBe(false);

    const second = await api.request('POST', '/v1/me/totp', { key: p.key });
    expect(second.body.secret).not.toBe(first.body.secret);
    const stale = await api.request('POST', '/v1/me/totp/confirm', {
      key: p.key,
      body: { code: totpCode(first.body.secret, clock.now()) },
    });
    expect(stale.status).toBe(400);
    expect(stale.body.details).toEqual([{ path: 'code', message: expect.stringContaining('wrong') }]);

    const confirmed = await api.request('POST', '/v1/me/totp/confirm', {
      key: p.key,
      body: { code: totpCode(second.body.secret, clock.now()) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);

    const stored = await credentialOf(p);
    expect(stored?.totp_confirmed_at).toBe(new Date(clock.now()).toISOString());
    expect(stored?.recovery_code_hashes).toHaveLength(10);
    for (const code of confirmed.body.recovery_codes) {
      expect(stored?.recovery_code_hashes).not.toContain(code);
      expect(JSON.stringify(stored)).not.toContain(code);
    }

    const again = await api.request('POST', '/v1/me/totp', { key: p.key });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(second.body.secret);
    const me = await api.request('GET', '/v1/me', { key: p.key });
    expect(me.text).not.toContain(second.body.secret);
    expect(me.body.totp_enabled).toBe(true);
    expect(api.logs.join('\n')).not.toContain(second.body.secret);
  });

  it('asks for a code at sign-in once TOTP is on, and accepts each code once', async () => {
    const p = await person();
    const { secret } = await turnOn(p);
    expect(await check(p, undefined)).toBe('required');
    expect(await check(p, '')).toBe('required');
    expect(await check(p, '000000' === totpCode(secret, clock.now()) ? '111111' : '000000')).toBe('invalid');

    const code = totpCode(secret, clock.now());
    expect(await check(p, code)).toBe('ok');
    // The same code again, within its step: a replay.
    expect(await check(p, code)).toBe('invalid');
    // The step before the one accepted is within the window but older: refused.
    expect(await check(p, totpCode(secret, clock.now() - STEP_MS))).toBe('invalid');

    clock.advance(STEP_MS);
    expect(await check(p, totpCode(secret, clock.now()))).toBe('ok');
    // A code two steps old is outside the window.
    clock.advance(3 * STEP_MS);
    expect(await check(p, totpCode(secret, clock.now() - 2 * STEP_MS))).toBe('invalid');
    // One step of drift either way is accepted.
    expect(await check(p, totpCode(secret, clock.now() + STEP_MS))).toBe('ok');
  });

  it('asks a password sign-in for a code once TOTP is on, accepting each code once', async () => {
    const p = await person();
    expect((await setPassword(api, p.key, { password: GOOD_PASSWORD })).status).toBe(204);
    const { secret, codes } = await turnOn(p);
    const bare = await signIn(api, { email: p.email, password: GOOD_PASSWORD });
    expect(bare.status).toBe(400);
    expect(bare.body.details).toEqual([{ path: 'totp', message: expect.any(String) }]);
    expect(bare.headers['set-cookie']).toBeUndefined();

    const code = totpCode(secret, clock.now());
    const signed = await signIn(api, { email: p.email, password: GOOD_PASSWORD, totp: code });
    expect(signed.status, signed.text).toBe(204);
    const replay = await signIn(api, { email: p.email, password: GOOD_PASSWORD, totp: code });
    expect(replay.status).toBe(400);
    expect(replay.body.details).toEqual([{ path: 'totp', message: expect.any(String) }]);
    const recovered = await signIn(api, { email: p.email, password: GOOD_PASSWORD, totp: codes[0] });
    expect(recovered.status).toBe(204);
  });

  it('accepts each recovery code once, in any case and with or without dashes', async () => {
    const p = await person();
    const { codes } = await turnOn(p);
    const [first, second] = codes;
    expect(await check(p, first)).toBe('ok');
    expect(await check(p, first)).toBe('invalid');
    expect(await check(p, second?.toUpperCase().replace(/-/g, ''))).toBe('ok');
    expect((await credentialOf(p))?.recovery_code_hashes).toHaveLength(8);
    expect(await check(p, 'abcd-efgh-jkmn')).toBe('invalid');
  });

  it('passes one of two sign-ins spending the same code at once', async () => {
    const p = await person();
    const { secret } = await turnOn(p);
    const credential = await credentialOf(p);
    const code = totpCode(secret, clock.now());
    const results = await Promise.all([
      checkSecondFactor({ table: api.table, clock }, credential, code),
      checkSecondFactor({ table: api.table, clock }, credential, code),
    ]);
    expect(results.sort()).toEqual(['invalid', 'ok']);
  });

  it('renews the recovery codes given a code: the old ones stop working', async () => {
    const p = await person();
    const { secret, codes } = await turnOn(p);
    const wrong = await api.request('POST', '/v1/me/recovery-codes', { key: p.key, body: { code: '12345' } });
    expect(wrong.status).toBe(400);
    const renewed = await api.request('POST', '/v1/me/recovery-codes', {
      key: p.key,
      body: { code: totpCode(secret, clock.now()) },
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect(await check(p, codes[0])).toBe('invalid');
    expect(await check(p, renewed.body.recovery_codes[0])).toBe('ok');
  });

  it('turns TOTP off given a recovery code: no second factor asked, the secret gone', async () => {
    const p = await person();
    const { secret, codes } = await turnOn(p);
    const wrong = await api.request('POST', '/v1/me/totp/disable', {
      key: p.key,
      body: { code: 'zzzz-zzzz-zzzz' },
    });
    expect(wrong.status).toBe(400);
    expect(await check(p, undefined)).toBe('required');

    const off = await api.request('POST', '/v1/me/totp/disable', { key: p.key, body: { code: codes[3] } });
    expect(off.status).toBe(204);
    expect(await check(p, undefined)).toBe('ok');
    const stored = await credentialOf(p);
    expect(stored?.totp_secret).toBeUndefined();
    expect(stored?.recovery_code_hashes).toBeUndefined();
    const again = await api.request('POST', '/v1/me/totp/disable', {
      key: p.key,
      body: { code: totpCode(secret, clock.now()) },
    });
    expect(again.status).toBe(409);
    // Enrolling anew works, with a new secret.
    const enrolled = await api.request('POST', '/v1/me/totp', { key: p.key });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.secret).not.toBe(secret);
  });

  it('refuses a read-only key (403) and names the user in the audit log', async () => {
    const p = await person();
    const ro = await api.request('POST', '/v1/auth/keys', {
      key: p.key,
      body: { label: 'ro', is_read_only: true },
    });
    const refused = await api.request('POST', '/v1/me/totp', { key: ro.body.key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('READ_ONLY');
    expect((await credentialOf(p))?.totp_secret).toBeUndefined();

    const { secret } = await turnOn(p);
    const log = await api.request('GET', `/v1/audit?target=${p.userId}`, { key: p.key });
    expect(log.status).toBe(200);
    const actions = log.body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['totp.enrol', 'totp.confirm']));
    expect(log.text).not.toContain(secret);
  });

  it('refuses confirming without an enrolment', async () => {
    const p = await person();
    const res = await api.request('POST', '/v1/me/totp/confirm', { key: p.key, body: { code: '123456' } });
    expect(res.status).toBe(409);
  });
});
