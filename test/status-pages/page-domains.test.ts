import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import type { ApiHarness, ApiResponse } from '../support/api-harness.ts';
import { feedProblems } from './support/feed-validator.ts';
import { requestOnDomain } from './support/on-domain.ts';
import { type SubscriberRuntime, subscriberRuntimes } from './support/subscriber-runtimes.ts';

/**
 * Custom domains of status pages (issue 54 item 4), on both runtimes: a page claims a domain on
 * the operator's list (VIGIL_PAGE_DOMAINS), one page of one tenant at a time; a request whose Host
 * is that domain (locally the Host header; in the cloud the viewer Host the CloudFront edge hands
 * the API with its secret) is the page's: `/` the page, its history, feeds, status.json, the
 * password form and the subscribers' routes, their links on the domain; any other path is the 404
 * page. Subscribers' e-mails link to https://{domain}/….
 */

const T0 = Date.parse('2026-08-03T10:00:00.000Z');
const ACME = 'status.acme.test';
const INITECH = 'status.initech.test';
const SPARE = 'status.spare.test';
/** Listed, and claimed below only by a claim item its page does not hold. */
const STALE = 'status.stale.test';
const EDGE_SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(subscriberRuntimes)(
  'status pages on custom domains ($runtime runtime)',
  ({ runtime, start }) => {
    let rt: SubscriberRuntime;
    let api: ApiHarness;
    const clock = createFakeClock(T0);
    let other: { tenantId: string; key: string };
    let entityId = '';

    /** A request on a domain: its Host locally; through the edge in the cloud (the viewer Host, proven by the secret). */
    const onDomain = (
      domain: string,
      method: string,
      path: string,
      options: { headers?: Record<string, string>; rawBody?: string } = {},
    ): Promise<ApiResponse> => requestOnDomain(api, EDGE_SECRET, domain, method, path, options);
    const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
      api.request(method, path, { key, body });
    /** After a page's domain changed: the domain's page and renders are held 30 s. */
    const past30s = () => clock.advance(30_001);
    const settle = async () => {
      for (let i = 0; i < 2; i += 1) {
        await api.drainChanges();
        await api.runNotifyJobs();
      }
    };

    beforeAll(async () => {
      rt = await start(clock, undefined, {
        VIGIL_PAGE_DOMAINS: `${ACME},${INITECH},${SPARE},${STALE}`,
        VIGIL_EDGE_SECRET: EDGE_SECRET,
      });
      api = rt.api;
      other = await api.createTenant('Initech');
      await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
      entityId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' }))
        .body.id;
    });
    afterAll(async () => {
      await rt?.close();
    });

    it('claims a domain of the list for one page of one tenant: another page or tenant is 409', async () => {
      const made = await req('POST', '/v1/status-pages', {
        slug: 'acme',
        title: 'Acme Status',
        entity_ids: [entityId],
        domain: ACME,
      });
      expect(made.status, made.text).toBe(201);
      expect(made.body).toMatchObject({ domain: ACME, public_path: '/p/acme' });
      expect((await req('GET', '/v1/status-pages/acme')).body.domain).toBe(ACME);

      const theirs = await req(
        'POST',
        '/v1/status-pages',
        { slug: 'initech', title: 'I', domain: ACME },
        other.key,
      );
      expect(theirs.status, theirs.text).toBe(409);
      expect(theirs.body.error).toContain(ACME);
      // The failed create changed nothing: its slug is still free.
      expect((await req('GET', '/v1/status-pages/initech', undefined, other.key)).status).toBe(404);
      const mine = await req('POST', '/v1/status-pages', { slug: 'acme-two', title: 'Two' });
      expect(mine.status).toBe(201);
      expect((await req('PUT', '/v1/status-pages/acme-two', { title: 'Two', domain: ACME })).status).toBe(
        409,
      );
      expect((await req('GET', '/v1/status-pages/acme-two')).body.domain).toBeNull();
    });

    it('refuses a domain off the operator’s list and a malformed one (400), changing nothing', async () => {
      const off = await req('POST', '/v1/status-pages', {
        slug: 'offlist',
        title: 'X',
        domain: 'status.other.test',
      });
      expect(off.status, off.text).toBe(400);
      expect(off.body.details[0]).toMatchObject({ path: 'domain' });
      expect(off.body.details[0].message).toContain('VIGIL_PAGE_DOMAINS');
      expect((await req('GET', '/v1/status-pages/offlist')).status).toBe(404);
      for (const bad of [
        'Status.Acme.test',
        'https://status.acme.test',
        'status.acme.test:443',
        'status.acme.test/p',
        '203.0.113.9',
        'localhost',
        'status.acme.test.',
        `${'a'.repeat(250)}.test`,
      ]) {
        const res = await req('POST', '/v1/status-pages', { slug: 'malformed', title: 'X', domain: bad });
        expect(res.status, bad).toBe(400);
      }
      // The deployment's own host (VIGIL_PUBLIC_URL's) is never a page's.
      const own = await req('POST', '/v1/status-pages', {
        slug: 'own',
        title: 'X',
        domain: 'status.example.com',
      });
      expect(own.status).toBe(400);
      expect(own.body.details[0].message).toContain('own host');
    });

    it('serves the page, its history, status.json, badge and valid feeds on the domain, linking there', async () => {
      const incident = await req('POST', '/v1/status-pages/acme/incidents', {
        title: 'Slow checkout',
        body: 'Looking into it.',
        impact: [{ entity_id: entityId, level: 'partial_outage' }],
      });
      expect(incident.status, incident.text).toBe(201);
      const page = await onDomain(ACME, 'GET', '/');
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      expect(page.text).toContain('Acme Status');
      expect(page.text).toContain('Slow checkout');
      expect(page.text).toContain('href="/feed.rss"');
      expect(page.text).toContain('action="/subscribe"');
      expect(page.text).toMatch(/href="\/history\/[0-9]{4}-[0-9]{2}"/);
      expect(page.text).not.toContain('/p/acme');
      const history = await onDomain(ACME, 'GET', '/history');
      expect(history.status).toBe(200);
      expect(history.text).toContain('<a href="/">Current status</a>');
      expect(history.text).not.toContain('/p/acme');
      expect((await onDomain(ACME, 'GET', '/history/2026-08')).status).toBe(200);
      const json = await onDomain(ACME, 'GET', '/status.json');
      expect(json.status).toBe(200);
      expect(json.body.title).toBe('Acme Status');
      expect((await onDomain(ACME, 'GET', '/badge.svg')).headers['content-type']).toContain('image/svg+xml');
      for (const format of ['rss', 'atom'] as const) {
        const feed = await onDomain(ACME, 'GET', `/feed.${format}`);
        expect(feed.status, feed.text).toBe(200);
        expect(feed.text).toContain(`https://${ACME}/feed.${format}`);
        expect(feed.text).toContain(`https://${ACME}/history/2026-08`);
        expect(feed.text).not.toContain('/p/acme');
        expect(await feedProblems(format, feed.text)).toEqual([]);
      }
    });

    it('keeps the page’s own links under /p/{slug} on Vigil’s host (a render per host)', async () => {
      // The domain's render is cached now; the same page on Vigil's own host links as before.
      const headers = runtime === 'lambda' ? { [EDGE_SECRET_HEADER]: EDGE_SECRET } : undefined;
      const own = await api.request('GET', '/p/acme', headers ? { headers } : {});
      expect(own.status).toBe(200);
      expect(own.text).toContain('href="/p/acme/feed.rss"');
      expect(own.text).toContain('action="/p/acme/subscribe"');
    });

    it('answers every other path on the domain with the 404 page: no API, console, MCP or /p/{slug}', async () => {
      for (const path of [
        '/v1/status-pages',
        '/v1/mcp',
        '/healthz',
        '/metrics',
        '/p/acme',
        '/index.html',
        '/assets/app.js',
        '/oauth/authorize',
        '/.well-known/oauth-authorization-server',
        '/feed.json',
        '/history/latest',
      ]) {
        const res = await onDomain(ACME, 'GET', path, {
          headers: { authorization: `Bearer ${api.adminKey}` },
        });
        expect(res.status, path).toBe(404);
        expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
        expect(res.text, path).toContain('Status page not found');
      }
      const write = await onDomain(ACME, 'POST', '/v1/blueprints', {
        headers: { authorization: `Bearer ${api.adminKey}`, 'content-type': 'application/json' },
        rawBody: JSON.stringify({ slug: 'sneaky', name: 'Sneaky' }),
      });
      expect(write.status).toBe(404);
      expect((await req('GET', '/v1/blueprints/sneaky')).status).toBe(404);
      // A listed domain no page holds serves nothing either.
      expect((await onDomain(SPARE, 'GET', '/')).status).toBe(404);
    });

    it('serves nothing on a domain whose claim names a page that holds another domain', async () => {
      // A claim item left behind (as an eventually consistent read may still see one after a move):
      // the page it names has ACME, so STALE is not its domain and answers the 404 page.
      await api.table.transact([
        {
          type: 'put',
          item: {
            pk: `PAGEDOMAIN#${STALE}`,
            sk: '#PAGEDOMAIN',
            entity: 'status_page_domain',
            schema_version: 1,
            tenant_id: api.tenantId,
            slug: 'acme',
          },
        },
      ]);
      for (const path of ['/', '/status.json', '/feed.rss']) {
        const res = await onDomain(STALE, 'GET', path);
        expect(res.status, path).toBe(404);
        expect(res.text, path).not.toContain('Acme Status');
      }
      await api.table.transact([{ type: 'delete', key: { pk: `PAGEDOMAIN#${STALE}`, sk: '#PAGEDOMAIN' } }]);
    });

    it('opens a password page on its domain with a cookie scoped to /', async () => {
      const made = await req(
        'POST',
        '/v1/status-pages',
        {
          slug: 'initech',
          title: 'Initech Private',
          visibility: 'password',
          password: 'correct horse',
          domain: INITECH,
        },
        other.key,
      );
      expect(made.status, made.text).toBe(201);
      const shut = await onDomain(INITECH, 'GET', '/');
      expect(shut.status).toBe(401);
      expect(shut.text).toContain('<form method="post" action="/access">');
      expect(shut.text).not.toContain('Initech Private');
      const wrong = await onDomain(INITECH, 'POST', '/access', { headers: FORM, rawBody: 'password=nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('action="/access"');
      const opened = await onDomain(INITECH, 'POST', '/access', {
        headers: FORM,
        rawBody: 'password=correct%20horse',
      });
      expect(opened.status, opened.text).toBe(302);
      expect(opened.headers.location).toBe('/');
      expect(opened.headers['set-cookie']).toMatch(
        /^vigil_page=[0-9]+\.[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly/,
      );
      const cookie = (opened.headers['set-cookie'] ?? '').split(';')[0] ?? '';
      const page = await onDomain(INITECH, 'GET', '/', { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Initech Private');
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect((await onDomain(INITECH, 'GET', '/feed.atom', { headers: { cookie } })).status).toBe(200);
    });

    it('mails subscribers who came by the domain links on the domain: confirm, notice, manage, unsubscribe', async () => {
      const address = 'reader@example.net';
      const asked = await onDomain(ACME, 'POST', '/subscribe', {
        headers: FORM,
        rawBody: new URLSearchParams({ email: address, components: 'all' }).toString(),
      });
      expect(asked.status, asked.text).toBe(202);
      expect(asked.text).toContain('<a href="/">Back to the status page</a>');
      await settle();
      const confirmation = rt.mails().find((m) => m.to.includes(address));
      const confirmLink = confirmation?.text.match(new RegExp(`https://${ACME}/confirm/\\S+`))?.[0];
      // Says what was mailed, should the confirmation be missing (CI saw none once, under load).
      const mailed = rt.mails().map((m) => `${m.to.join(',')}: ${m.subject}`);
      expect(confirmLink, `${confirmation?.text}\nmailed: ${mailed.join('; ')}`).toBeDefined();
      expect(confirmation?.text).not.toContain('/p/acme');
      const confirmPath = new URL(confirmLink ?? '').pathname;
      expect((await onDomain(ACME, 'GET', confirmPath)).status).toBe(200);
      expect((await onDomain(ACME, 'POST', confirmPath, { headers: FORM, rawBody: '' })).status).toBe(200);

      const incident = (await req('GET', '/v1/status-pages/acme/incidents')).body.incidents[0];
      clock.advance(60_000);
      const update = await req('POST', `/v1/status-pages/acme/incidents/${incident.id}/updates`, {
        status: 'identified',
        body: 'Found it.',
        notify: true,
      });
      expect(update.status, update.text).toBe(201);
      await settle();
      const notice = rt
        .mails()
        .filter((m) => m.to.includes(address))
        .at(-1);
      expect(notice?.subject).toContain('Slow checkout');
      expect(notice?.text).toMatch(new RegExp(`Status page: https://${ACME}/\\s`));
      const manage = notice?.text.match(new RegExp(`https://${ACME}/subscription/\\S+`))?.[0] ?? '';
      expect(manage).not.toBe('');
      expect(notice?.headers.get('list-unsubscribe')).toBe(`<${manage}>`);
      expect(notice?.text).not.toContain('/p/acme');
      const managePath = new URL(manage).pathname;
      expect((await onDomain(ACME, 'GET', managePath)).status).toBe(200);
      const gone = await onDomain(ACME, 'POST', managePath, {
        headers: FORM,
        rawBody: 'List-Unsubscribe=One-Click',
      });
      expect(gone.status).toBe(200);
    });

    it('frees a domain its page moves off or clears, and serves the new one', async () => {
      const moved = await req('PUT', '/v1/status-pages/acme-two', { title: 'Two', domain: SPARE });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.domain).toBe(SPARE);
      past30s();
      expect((await onDomain(SPARE, 'GET', '/')).text).toContain('Two');
      // Absent on PUT: unchanged; null: cleared, and the domain is free for another tenant.
      expect((await req('PUT', '/v1/status-pages/acme-two', { title: 'Two again' })).body.domain).toBe(SPARE);
      const cleared = await req('PUT', '/v1/status-pages/acme-two', { title: 'Two', domain: null });
      expect(cleared.body.domain).toBeNull();
      past30s();
      expect((await onDomain(SPARE, 'GET', '/')).status).toBe(404);
      const taken = await req(
        'POST',
        '/v1/status-pages',
        { slug: 'spare', title: 'Spare', domain: SPARE },
        other.key,
      );
      expect(taken.status, taken.text).toBe(201);
      past30s();
      expect((await onDomain(SPARE, 'GET', '/')).text).toContain('Spare');
    });

    it('frees a deleted page’s domain, which then answers 404 until another page claims it', async () => {
      expect((await req('DELETE', '/v1/status-pages/spare', undefined, other.key)).status).toBe(204);
      past30s();
      const after = await onDomain(SPARE, 'GET', '/');
      expect(after.status).toBe(404);
      expect(after.text).not.toContain('Spare');
      const again = await req('PUT', '/v1/status-pages/acme-two', { title: 'Two', domain: SPARE });
      expect(again.status, again.text).toBe(200);
    });
  },
);
