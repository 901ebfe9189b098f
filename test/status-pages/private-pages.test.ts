import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { sesOutbox } from '../support/ses-outbox.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

/**
 * Password pages (issue 54 item 4), on both runtimes: every /p/{slug} route (HTML, history, a
 * month, status.json, badge, feeds) answers the password form and nothing of the page without the
 * access cookie, privately; the right password sets a cookie scoped to /p/{slug} that opens them
 * all (still private, never shared-cached); a wrong one answers the form with an error; the
 * password is write-only; a new password signs every visitor out.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');
const SECRET_WORDS = ['Hidden Co', 'Ledger API', 'Quiet outage'];
const ROUTES = (slug: string) => [
  `/p/${slug}`,
  `/p/${slug}/history`,
  `/p/${slug}/history/2026-06`,
  `/p/${slug}/status.json`,
  `/p/${slug}/badge.svg`,
  `/p/${slug}/feed.rss`,
  `/p/${slug}/feed.atom`,
];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(bothRuntimes)('password pages ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  // Mail can go (SMTP on 127.0.0.1 locally, SES mocked in the cloud): the page takes subscriptions.
  let smtp: TestSmtpServer | undefined;
  let ses: ReturnType<typeof sesOutbox> | undefined;
  const clock = createFakeClock(T0);
  let entityId = '';
  const req = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const open = async (slug: string, password: string) =>
    api.request('POST', `/p/${slug}/access`, {
      headers: FORM,
      rawBody: `password=${encodeURIComponent(password)}`,
    });
  const cookieOf = (setCookie: string | undefined) => (setCookie ?? '').split(';')[0] ?? '';

  beforeAll(async () => {
    // A small failed sign-in budget, so the limit is reached in a few tries.
    smtp = runtime === 'local' ? await startSmtpServer() : undefined;
    ses = runtime === 'local' ? undefined : sesOutbox();
    const mail = {
      VIGIL_EMAIL_FROM: 'Vigil <status@vigil.example.com>',
      ...(smtp ? { VIGIL_SMTP_URL: smtp.url } : {}),
    };
    api = await start({ clock, env: { VIGIL_AUTH_FAILURE_LIMIT: '4', ...mail } });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    entityId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'ledger', name: 'Ledger API' }))
      .body.id;
    const made = await req('POST', '/v1/status-pages', {
      slug: 'hidden',
      title: 'Hidden Co',
      entity_ids: [entityId],
      visibility: 'password',
      password: 'correct horse battery',
    });
    expect(made.status, made.text).toBe(201);
    const incident = await req('POST', '/v1/status-pages/hidden/incidents', {
      title: 'Quiet outage',
      body: 'Looking.',
    });
    expect(incident.status, incident.text).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    ses?.restore();
  });

  it('keeps the password write-only: the owner reads the visibility, never the password or its hash', async () => {
    const read = await req('GET', '/v1/status-pages/hidden');
    expect(read.body.visibility).toBe('password');
    expect(read.text).not.toMatch(/correct horse|scrypt|password_hash|access_key/);
    const list = await req('GET', '/v1/status-pages');
    expect(list.text).not.toMatch(/correct horse|scrypt|password_hash|access_key/);
  });

  it('answers every route with the password form and nothing of the page without the cookie', async () => {
    for (const path of ROUTES('hidden')) {
      const res = await api.request('GET', path);
      expect(res.status, path).toBe(401);
      expect(res.headers['cache-control'], path).toBe('private, no-store');
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<form method="post" action="/p/hidden/access">');
      for (const word of SECRET_WORDS) expect(res.text, `${path} shows ${word}`).not.toContain(word);
    }
    // A forged or foreign cookie opens nothing.
    const forged = await api.request('GET', '/p/hidden/status.json', {
      headers: { cookie: `vigil_page=${T0 + 3_600_000}.${'A'.repeat(43)}` },
    });
    expect(forged.status).toBe(401);
  });

  it('answers a wrong password with the form and an error, and sets no cookie', async () => {
    const res = await open('hidden', 'wrong password');
    expect(res.status).toBe(401);
    expect(res.text).toContain('That password does not open this page.');
    expect(res.headers['set-cookie']).toBeUndefined();
    for (const word of SECRET_WORDS) expect(res.text).not.toContain(word);
  });

  it('opens every route with the cookie the right password sets, privately', async () => {
    const res = await open('hidden', 'correct horse battery');
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toBe('/p/hidden');
    expect(res.headers['set-cookie']).toMatch(
      /^vigil_page=[0-9]+\.[\w-]{43}; Max-Age=43200; Path=\/p\/hidden; HttpOnly; SameSite=Lax/,
    );
    const cookie = cookieOf(res.headers['set-cookie']);
    for (const path of ROUTES('hidden')) {
      const page = await api.request('GET', path, { headers: { cookie } });
      expect(page.status, `${path}: ${page.text.slice(0, 200)}`).toBe(200);
      expect(page.headers['cache-control'], path).toBe('private, no-store');
      expect(page.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    expect((await api.request('GET', '/p/hidden', { headers: { cookie } })).text).toContain('Quiet outage');
    expect((await api.request('GET', '/p/hidden/feed.atom', { headers: { cookie } })).text).toContain(
      'Quiet outage',
    );
  });

  it('takes a subscription on a password page only from a visitor it let in', async () => {
    const form = { body: { email: 'reader@example.com' } };
    const shut = await api.request('POST', '/p/hidden/subscribe', form);
    expect(shut.status).toBe(401);
    expect(shut.text).not.toContain('Quiet outage');
    const cookie = cookieOf((await open('hidden', 'correct horse battery')).headers['set-cookie']);
    const let_in = await api.request('POST', '/p/hidden/subscribe', { ...form, headers: { cookie } });
    expect(let_in.status, let_in.text).toBe(202);
    expect(let_in.headers['cache-control']).toBe('private, no-store');
  });

  it('signs every visitor out when the password changes (within the 30 s the page’s privacy is held)', async () => {
    const cookie = cookieOf((await open('hidden', 'correct horse battery')).headers['set-cookie']);
    const put = await req('PUT', '/v1/status-pages/hidden', {
      title: 'Hidden Co',
      entity_ids: [entityId],
      password: 'a brand new secret',
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.visibility).toBe('password');
    clock.advance(30_001);
    expect((await api.request('GET', '/p/hidden', { headers: { cookie } })).status).toBe(401);
    expect((await open('hidden', 'correct horse battery')).status).toBe(401);
    const fresh = cookieOf((await open('hidden', 'a brand new secret')).headers['set-cookie']);
    expect((await api.request('GET', '/p/hidden', { headers: { cookie: fresh } })).status).toBe(200);
  });

  it('refuses a password page without a password and a public page with one (400), changing nothing', async () => {
    const none = await req('POST', '/v1/status-pages', {
      slug: 'nopass',
      title: 'X',
      visibility: 'password',
    });
    expect(none.status).toBe(400);
    const both = await req('POST', '/v1/status-pages', {
      slug: 'pubpass',
      title: 'X',
      password: 'long enough pw',
    });
    expect(both.status).toBe(400);
    const short = await req('POST', '/v1/status-pages', {
      slug: 'short',
      title: 'X',
      visibility: 'password',
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect((await api.request('GET', '/p/nopass')).status).toBe(404);
  });

  it('answers an unknown page’s password form as a wrong password (nothing tells it from a private page)', async () => {
    const res = await open('no-such-page', 'anything at all');
    expect(res.status).toBe(401);
    expect(res.text).toContain('That password does not open this page.');
  });

  it('bounds a guess of one page’s password spread over many addresses (per page, 429 to every address)', async () => {
    const made = await req('POST', '/v1/status-pages', {
      slug: 'crowd',
      title: 'Crowd Co',
      entity_ids: [entityId],
      visibility: 'password',
      password: 'the crowd cannot guess',
    });
    expect(made.status, made.text).toBe(201);
    const from = (address: string, password: string, slug = 'crowd') =>
      api.request('POST', `/p/${slug}/access`, {
        headers: FORM,
        rawBody: `password=${encodeURIComponent(password)}`,
        sourceIp: address,
      });
    // One wrong guess from each of eight addresses: none reaches its own limit (4 a minute), the
    // page's ceiling (4 a minute over all addresses) stops the fifth.
    const statuses: number[] = [];
    for (let i = 2; i < 10; i += 1) statuses.push((await from(`127.0.0.${i}`, `guess ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    // Past it, the right password from a new address is refused too (a guesser learns nothing)…
    expect((await from('127.0.0.20', 'the crowd cannot guess')).status).toBe(429);
    // …another page is not, and once the minute has refilled the bucket it opens the page.
    expect((await from('127.0.0.21', 'a brand new secret', 'hidden')).status).toBe(302);
    clock.advance(60_000);
    const opened = await from('127.0.0.22', 'the crowd cannot guess');
    expect(opened.status, opened.text).toBe(302);
  });

  it('stops an address guessing a page’s password (429), the right password included, as failed sign-ins are', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i += 1)
      statuses.push((await open('hidden', `guess ${i}`)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect((await open('hidden', 'a brand new secret')).status).toBe(429);
  });
});
