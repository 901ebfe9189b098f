import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { invite, join, uniqueEmail } from '../auth/team-helpers.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import {
  cookieValue,
  csrfOf,
  GOOD_PASSWORD,
  setPassword,
  signedIn,
  signIn,
  withCookie,
} from './session-helpers.ts';

const START = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(runtimes)('session lifecycle and passwords ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);

  beforeAll(async () => {
    api = await start({ clock });
  });
  afterAll(async () => {
    await api.close();
  });

  async function member(role?: 'admin' | 'member') {
    const joined = await join(api, api.adminKey, { email: uniqueEmail('life'), ...(role ? { role } : {}) });
    expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
    return joined;
  }

  const status = async (session: string) => (await withCookie(api, 'GET', '/v1/me', session)).status;

  it('ends a session unused for 12 hours, and keeps one in use alive until then', async () => {
    const joined = await member();
    const used = await signedIn(api, joined.email);
    const idle = await signedIn(api, joined.email);
    clock.advance(11 * HOUR);
    expect(await status(used)).toBe(200);
    clock.advance(2 * HOUR);
    // 13 h since sign-in: the idle one is over, the one used at 11 h is not.
    const expired = await withCookie(api, 'GET', '/v1/me', idle);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('the session has expired: sign in again');
    expect(await status(used)).toBe(200);
    expect(await status(idle)).toBe(401);
  });

  it('ends a session 30 days after sign-in however much it is used', async () => {
    const joined = await member();
    const session = await signedIn(api, joined.email);
    // Used every 11 hours (never idle for 12): fine until the 30th day is over.
    let elapsed = 0;
    while (elapsed + 11 * HOUR < 30 * DAY) {
      clock.advance(11 * HOUR);
      elapsed += 11 * HOUR;
      expect(await status(session), `after ${elapsed / HOUR} h`).toBe(200);
    }
    clock.advance(30 * DAY - elapsed + 60_000);
    expect(await status(session)).toBe(401);
  });

  it('lists your sessions (the current one marked) and revokes one; another’s is not found', async () => {
    const joined = await member();
    const first = await signedIn(api, joined.email);
    const second = await signIn(
      api,
      { email: joined.email, password: GOOD_PASSWORD },
      { 'user-agent': 'Firefox/141' },
    );
    const secondId = cookieValue(second);
    const list = await withCookie(api, 'GET', '/v1/sessions', first);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const current = list.body.find((s: { current: boolean }) => s.current);
    const other = list.body.find((s: { current: boolean }) => !s.current);
    expect(Object.keys(current).sort()).toEqual(
      [
        'created_at',
        'current',
        'expires_at',
        'id',
        'last_seen_at',
        'method',
        'source_ip',
        'user_agent',
      ].sort(),
    );
    expect(other).toMatchObject({ method: 'password', user_agent: 'Firefox/141', current: false });
    expect(list.text).not.toContain(first);
    expect(list.text).not.toContain(secondId);

    // An admin may not end another person's session here.
    const byAdmin = await api.request('DELETE', `/v1/sessions/${other.id}`, { key: api.adminKey });
    expect(byAdmin.status).toBe(404);
    expect(await status(secondId)).toBe(200);

    const csrf = await csrfOf(api, first);
    const revoked = await withCookie(api, 'DELETE', `/v1/sessions/${other.id}`, first, { csrf });
    expect(revoked.status, revoked.text).toBe(204);
    expect(await status(secondId)).toBe(401);
    expect(await status(first)).toBe(200);
    const again = await withCookie(api, 'DELETE', `/v1/sessions/${other.id}`, first, { csrf });
    expect(again.status).toBe(404);
  });

  it('changes a password: the current one is required, other sessions end, this one and API keys stay', async () => {
    const joined = await member();
    const here = await signedIn(api, joined.email);
    const elsewhere = await signedIn(api, joined.email);
    const csrf = await csrfOf(api, here);
    const next = 'another fine passphrase 41';

    const missing = await withCookie(api, 'POST', '/v1/me/password', here, {
      csrf,
      body: { password: next },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([
      { path: 'current_password', message: 'enter your current password to change it' },
    ]);
    const wrong = await withCookie(api, 'POST', '/v1/me/password', here, {
      csrf,
      body: { current_password: 'not it at all 41', password: next },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details[0].path).toBe('current_password');

    const changed = await withCookie(api, 'POST', '/v1/me/password', here, {
      csrf,
      body: { current_password: GOOD_PASSWORD, password: next },
    });
    expect(changed.status, changed.text).toBe(204);
    expect(await status(here)).toBe(200);
    expect(await status(elsewhere)).toBe(401);
    expect((await api.request('GET', '/v1/me', { key: joined.key })).status).toBe(200);
    expect((await signIn(api, { email: joined.email, password: GOOD_PASSWORD })).status).toBe(401);
    expect((await signIn(api, { email: joined.email, password: next })).status).toBe(204);
  });

  it('refuses short, common and e-mail passwords, saying why', async () => {
    const joined = await join(api, api.adminKey, { email: uniqueEmail('policy') });
    const local = joined.email.split('@')[0] ?? '';
    const cases: Array<[string, RegExp]> = [
      ['short1234', /at least 10 characters/],
      ['x'.repeat(129), /at most 128 characters/],
      ['Password1234', /too common/],
      ['qwertyuiop', /too common/],
      [joined.email.toUpperCase(), /e-mail address/],
      [local, /e-mail address/],
    ];
    for (const [password, why] of cases) {
      const res = await setPassword(api, joined.key, { password });
      expect(res.status, password).toBe(400);
      expect(res.body.details[0].path).toBe('password');
      expect(res.body.details[0].message).toMatch(why);
      expect(res.text).not.toContain(password.slice(0, 40));
    }
    expect((await setPassword(api, joined.key, { password: GOOD_PASSWORD })).status).toBe(204);
  });

  it('refuses the sign-in of a removed member at once, and deletes their sessions and credential', async () => {
    const joined = await member();
    const session = await signedIn(api, joined.email);
    const removed = await api.request('DELETE', `/v1/settings/users/${joined.userId}`, { key: api.adminKey });
    expect(removed.status, removed.text).toBe(204);
    expect(await status(session)).toBe(401);
    expect((await signIn(api, { email: joined.email, password: GOOD_PASSWORD })).status).toBe(401);
    const left = await api.table.query({
      pk: `TENANT#${api.tenantId}`,
      sk: { op: 'beginsWith', prefix: `USERSESSION#${joined.userId}` },
    });
    expect(left.items).toEqual([]);
    expect(
      await api.table.get({ pk: `TENANT#${api.tenantId}`, sk: `CRED#${joined.userId}` }),
    ).toBeUndefined();
    expect((await api.table.query({ pk: `LOGIN#${joined.email}` })).items).toEqual([]);
  });

  it('refuses the sessions and the sign-in of a disabled team (403 ACCOUNT_DISABLED), as its keys', async () => {
    const other = await api.createTenant('Disabled41');
    expect((await setPassword(api, other.key, { password: GOOD_PASSWORD })).status).toBe(204);
    const session = await signedIn(api, 'disabled41@example.com');
    expect(await status(session)).toBe(200);
    await api.operator(['tenant', 'disable', other.tenantId]);
    const refused = await withCookie(api, 'GET', '/v1/me', session);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_DISABLED');
    const again = await signIn(api, { email: 'disabled41@example.com', password: GOOD_PASSWORD });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('ACCOUNT_DISABLED');
  });

  it('accepts an invitation with a password: a session cookie, and the member signs in later', async () => {
    const email = uniqueEmail('accept');
    const invited = await invite(api, api.adminKey, { email });
    const weak = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, password: 'password123' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.details[0].path).toBe('password');
    // From another site's page (login CSRF): refused before anything is written, so the token still works.
    const foreign = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, password: GOOD_PASSWORD },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, password: GOOD_PASSWORD },
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body.key).toMatch(/^vgl_/);
    expect(accepted.body.user.name).toBe(email.split('@')[0]);
    const session = cookieValue(accepted);
    const me = await withCookie(api, 'GET', '/v1/me', session);
    expect(me.body.user).toMatchObject({ email, role: 'member' });
    expect((await signIn(api, { email, password: GOOD_PASSWORD })).status).toBe(204);
  });

  it('makes a viewer’s session read-only, while they still sign out and set their password', async () => {
    const email = uniqueEmail('viewer');
    const invited = await invite(api, api.adminKey, { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invited.body.token, name: 'Vera', password: GOOD_PASSWORD },
    });
    expect(accepted.status, accepted.text).toBe(201);
    const session = cookieValue(accepted);
    const csrf = await csrfOf(api, session);
    const me = await withCookie(api, 'GET', '/v1/me', session);
    expect(me.body.key.is_read_only).toBe(true);
    const write = await withCookie(api, 'POST', '/v1/blueprints', session, {
      csrf,
      body: { slug: 'viewer-bp', name: 'Nope' },
    });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('READ_ONLY');
    // Their read-only key may not change the password; signed in, they may.
    const byKey = await setPassword(api, accepted.body.key, {
      current_password: GOOD_PASSWORD,
      password: 'viewer passphrase 41',
    });
    expect(byKey.status).toBe(403);
    const changed = await withCookie(api, 'POST', '/v1/me/password', session, {
      csrf,
      body: { current_password: GOOD_PASSWORD, password: 'viewer passphrase 41' },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await withCookie(api, 'DELETE', '/v1/session', session, { csrf })).status).toBe(204);
    expect(await status(session)).toBe(401);
  });
});
