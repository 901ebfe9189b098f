import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/lambda-http/edge-address.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { pageCreatedOps } from '../../lib/status-pages/items/status-page-items.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { type ApiHarness, bothRuntimes, type LocalHarness } from '../support/api-harness.ts';

/**
 * /v1/status-pages and the keyless /p/{slug} routes on both runtimes: CRUD with a globally unique
 * slug, tenant isolation and read-only keys; the HTML page (CSP, cache header), status.json and
 * badge.svg; unknown slugs; and the per-address rate limit of the public routes.
 */

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const EDGE_SECRET = 'edge-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe.each(bothRuntimes)('status pages ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let readOnlyKey = '';
  let entityId = '';
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });

  const clock = createFakeClock(T0);

  beforeAll(async () => {
    api = await start({ clock });
    readOnlyKey = (await req('POST', '/v1/auth/keys', { label: 'viewer', is_read_only: true })).body.key;
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    entityId = (await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' }))
      .body.id;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('creates, reads, lists, replaces and deletes a page', async () => {
    const created = await req('POST', '/v1/status-pages', {
      slug: 'acme',
      title: 'Acme status',
      entity_ids: [entityId],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'acme',
      title: 'Acme status',
      description: null,
      entity_ids: [entityId],
      show_incidents: true,
      public_path: '/p/acme',
    });
    expect((await req('GET', '/v1/status-pages/acme')).body).toEqual(created.body);
    expect((await req('GET', '/v1/status-pages')).body.status_pages).toEqual([created.body]);

    const replaced = await req('PUT', '/v1/status-pages/acme', {
      title: 'Acme',
      description: 'Our services',
      entity_ids: [entityId],
      show_incidents: false,
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ slug: 'acme', title: 'Acme', description: 'Our services' });

    expect((await req('DELETE', '/v1/status-pages/acme')).status).toBe(204);
    expect((await req('GET', '/v1/status-pages/acme')).status).toBe(404);
    expect((await api.request('GET', '/p/acme')).status).toBe(404);
  });

  it('keeps slugs unique across tenants and pages isolated', async () => {
    const other = await api.createTenant('Globex');
    expect((await req('POST', '/v1/status-pages', { slug: 'shared', title: 'Mine' })).status).toBe(201);
    const taken = await req('POST', '/v1/status-pages', { slug: 'shared', title: 'Theirs' }, other.key);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('CONFLICT');
    expect((await req('GET', '/v1/status-pages/shared', undefined, other.key)).status).toBe(404);
    expect((await req('DELETE', '/v1/status-pages/shared', undefined, other.key)).status).toBe(404);
    expect((await req('GET', '/v1/status-pages', undefined, other.key)).body.status_pages).toEqual([]);
    // Another tenant's entity is as unknown as a made-up one.
    const foreign = await req(
      'POST',
      '/v1/status-pages',
      { slug: 'g', title: 'G', entity_ids: [entityId] },
      other.key,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.details[0].path).toBe('entity_ids.0');
    // Freed by its deletion, the slug is anyone's.
    expect((await req('DELETE', '/v1/status-pages/shared')).status).toBe(204);
    expect(
      (await req('POST', '/v1/status-pages', { slug: 'shared', title: 'Theirs' }, other.key)).status,
    ).toBe(201);
  });

  it('names its entities in every answer, one deleted left out', async () => {
    const gone = (await req('POST', '/v1/blueprints/service/entities', { slug: 'old', name: 'Old box' })).body
      .id;
    const named = [{ id: entityId, name: 'Public API', blueprint_slug: 'service', slug: 'api' }];
    const body = { slug: 'named', title: 'Named', entity_ids: [gone, entityId] };
    const created = await req('POST', '/v1/status-pages', body);
    expect(created.status, created.text).toBe(201);
    expect(created.body.entities).toEqual([
      { id: gone, name: 'Old box', blueprint_slug: 'service', slug: 'old' },
      ...named,
    ]);
    expect((await req('DELETE', '/v1/blueprints/service/entities/old')).status).toBe(204);
    expect((await req('GET', '/v1/status-pages/named')).body.entities).toEqual(named);
    const listed = (await req('GET', '/v1/status-pages')).body.status_pages.find(
      (p: { slug: string }) => p.slug === 'named',
    );
    expect(listed.entity_ids).toEqual([gone, entityId]);
    expect(listed.entities).toEqual(named);
    const replaced = await req('PUT', '/v1/status-pages/named', { title: 'Named', entity_ids: [entityId] });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.entities).toEqual(named);
    expect((await req('DELETE', '/v1/status-pages/named')).status).toBe(204);
  });

  it("never names another tenant's entity, even one its stored page names", async () => {
    const other = await api.createTenant('Initech');
    // The API refuses a foreign id; a record written past it must still not learn the name.
    const at = new Date(T0).toISOString();
    const record = { slug: 'foreign', tenant_id: other.tenantId, title: 'F', description: null };
    const rest = {
      entity_ids: [entityId],
      show_incidents: false,
      visibility: 'public' as const,
      password_hash: null,
      access_key: null,
      domain: null,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    await api.table.transact(pageCreatedOps({ ...record, ...rest }));
    const read = await req('GET', '/v1/status-pages/foreign', undefined, other.key);
    expect(read.status, read.text).toBe(200);
    expect(read.body.entity_ids).toEqual([entityId]);
    expect(read.body.entities).toEqual([]);
    expect(read.text).not.toContain('Public API');
    expect(
      (await req('GET', '/v1/status-pages', undefined, other.key)).body.status_pages[0].entities,
    ).toEqual([]);
  });

  it('lets read-only keys read but not write', async () => {
    await req('POST', '/v1/status-pages', { slug: 'ro', title: 'RO' });
    expect((await req('GET', '/v1/status-pages/ro', undefined, readOnlyKey)).status).toBe(200);
    const denied = await req('PUT', '/v1/status-pages/ro', { title: 'x' }, readOnlyKey);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('READ_ONLY');
    expect((await req('POST', '/v1/status-pages', { slug: 'ro2', title: 'x' }, readOnlyKey)).status).toBe(
      403,
    );
  });

  it('serves the page, its JSON and its badge without a key, cached 30 s', async () => {
    await req('POST', '/v1/status-pages', { slug: 'public', title: 'Acme <status>', entity_ids: [entityId] });

    const html = await api.request('GET', '/p/public');
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['cache-control']).toBe('public, max-age=30');
    expect(html.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(html.headers['content-security-policy']).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(html.headers['content-security-policy']).not.toMatch(/script-src|unsafe/);
    expect(html.text).toContain('Acme &lt;status&gt;');
    expect(html.text).toContain('Public API');
    expect(html.text).not.toMatch(/<script/i);

    const json = await api.request('GET', '/p/public/status.json');
    expect(json.status).toBe(200);
    expect(json.headers['cache-control']).toBe('public, max-age=30');
    expect(json.body).toMatchObject({
      title: 'Acme <status>',
      description: null,
      state: 'unknown',
      entities: [{ name: 'Public API', state: 'unknown' }],
      incidents: { open: [], resolved: [] },
    });
    // 90 daily bars, oldest first, today last (no results yet: null each day).
    const days = json.body.entities[0].days;
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toEqual({ date: '2026-06-01', uptime_ratio: null });

    const badge = await api.request('GET', '/p/public/badge.svg');
    expect(badge.status).toBe(200);
    expect(badge.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(badge.headers['cache-control']).toBe('public, max-age=30');
    expect(badge.text).toMatch(/^<svg /);
    expect(badge.text).toContain('Acme &lt;status&gt;');
    expect(badge.text).toContain('unknown');
  });

  it('takes the pages of a disabled account dark (404), and back when it is enabled again', async () => {
    const made = await req('POST', '/v1/status-pages', {
      slug: `dark-${api.runtime}`,
      title: 'Dark',
      entity_ids: [entityId],
    });
    expect(made.status, made.text).toBe(201);
    const path = `/p/dark-${api.runtime}`;
    expect((await api.request('GET', path)).status).toBe(200);
    await api.app.tenants.setDisabled(api.tenantId, true);
    // The rendered page serves its 30 s (docs/status-pages.md "Caching"): dark once they pass.
    expect((await api.request('GET', path)).status).toBe(200);
    clock.advance(PAGE_CACHE_MS);
    try {
      expect((await api.request('GET', path)).status).toBe(404);
      expect((await api.request('GET', `${path}/status.json`)).status).toBe(404);
      expect((await api.request('GET', `${path}/badge.svg`)).status).toBe(404);
    } finally {
      await api.app.tenants.setDisabled(api.tenantId, false);
    }
    expect((await api.request('GET', path)).status).toBe(200);
  });

  it('refuses reserved slugs and punycode look-alikes (400), whatever else the body says', async () => {
    for (const slug of [
      'admin',
      'login',
      'api',
      'www',
      'status',
      'xn--pple-43d',
      'xn--80ak6aa92e',
      'ab--c',
    ]) {
      const refused = await req('POST', '/v1/status-pages', { slug, title: 'Official status' });
      expect(refused.status, slug).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(refused.text).toMatch(/reserved|punycode/);
      expect((await api.request('GET', `/p/${slug}`)).status).toBe(404);
    }
    // Near names are anyone's: only the exact reserved word and the xn-- shape are refused.
    expect((await req('POST', '/v1/status-pages', { slug: 'admin-tools', title: 'Tools' })).status).toBe(201);
  });

  it('leaves XML-invalid characters (U+FFFE, U+FFFF, controls) out of the badge', async () => {
    const title = 'Bad\uFFFE\uFFFF\u0001\u0008\u001b chars\ttab \u{1F600}';
    const made = await req('POST', '/v1/status-pages', { slug: 'xml-chars', title });
    expect(made.status, made.text).toBe(201);
    const badge = await api.request('GET', '/p/xml-chars/badge.svg');
    expect(badge.status).toBe(200);
    // Only XML 1.0 Chars (https://www.w3.org/TR/xml/#NT-Char): nothing else makes a broken image.
    expect(badge.text).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    expect(badge.text).toContain('Bad chars tab \u{1F600}: unknown');
  });

  it('answers an unknown slug with a 404 page, JSON error and grey badge', async () => {
    const html = await api.request('GET', '/p/no-such-page');
    expect(html.status).toBe(404);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain('Status page not found');
    expect((await api.request('GET', '/p/NOT_A_SLUG!')).status).toBe(404);
    const json = await api.request('GET', '/p/no-such-page/status.json');
    expect(json.status).toBe(404);
    expect(json.body.code).toBe('NOT_FOUND');
    const badge = await api.request('GET', '/p/no-such-page/badge.svg');
    expect(badge.status).toBe(404);
    expect(badge.text).toMatch(/^<svg /);
  });
});

/** A GET of the local server from a chosen loopback source address. */
function fromAddress(h: LocalHarness, path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${h.local.url}${path}`, { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(bothRuntimes)(
  'the public routes’ per-address limit ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;

    beforeAll(async () => {
      api = await start({
        clock: createFakeClock(Date.parse('2026-01-01T00:00:10.000Z')),
        env: { VIGIL_RATE_LIMIT_RPS: '1', VIGIL_RATE_LIMIT_BURST: '3', VIGIL_EDGE_SECRET: EDGE_SECRET },
      });
      await api.request('POST', '/v1/status-pages', {
        key: api.adminKey,
        body: { slug: 'limited', title: 'L' },
      });
    });
    afterAll(async () => {
      await api?.close();
    });

    /** One viewer's GET: a loopback source address locally, the edge's viewer header in the cloud. */
    const get = async (path: string, viewer: number): Promise<number> => {
      if (runtime === 'local') return fromAddress(api as LocalHarness, path, `127.0.0.${viewer}`);
      const res = await api.request('GET', path, {
        headers: { [EDGE_SECRET_HEADER]: EDGE_SECRET, [VIEWER_ADDRESS_HEADER]: `203.0.113.${viewer}` },
      });
      return res.status;
    };

    it('answers 429 past the limit, to that address only', async () => {
      const first = [];
      for (const path of ['/p/limited', '/p/limited/status.json', '/p/limited/badge.svg', '/p/limited'])
        first.push(await get(path, 2));
      expect(first).toEqual([200, 200, 200, 429]);
      expect(await get('/p/limited', 3)).toBe(200);
    });
  },
);
