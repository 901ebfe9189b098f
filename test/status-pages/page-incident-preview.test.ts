import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * POST /v1/status-pages/{slug}/incidents/preview, the console's preview of an update body: the
 * HTML is the public page's own (the same body, once published, appears in /p/{slug} as the preview
 * answered it), raw HTML stays text, nothing is stored or audited, read-only keys may preview,
 * another tenant's page is 404, and the body has the update's bounds.
 */

const BODY = [
  'We are *looking* into it; see [the notice](https://example.com/notice).',
  '',
  '- checkout',
  '- search',
  '',
  '<script>alert(1)</script> and <b>bold</b>',
].join('\n');

describe.each(runtimes)('page incident preview ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const req = (method: string, path: string, body?: unknown, key = api.adminKey) =>
    api.request(method, path, { key, body });
  const preview = '/v1/status-pages/acme/incidents/preview';

  beforeAll(async () => {
    api = await start();
    expect((await req('POST', '/v1/status-pages', { slug: 'acme', title: 'Acme' })).status).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('renders the body as the public page shows it, raw HTML as text', async () => {
    const res = await req('POST', preview, { body: BODY });
    expect(res.status, res.text).toBe(200);
    const html = res.body.html as string;
    expect(html).toContain('<em>looking</em>');
    expect(html).toContain('<a href="https://example.com/notice" rel="nofollow noopener">the notice</a>');
    expect(html).toContain('<ul>\n<li>checkout</li>\n<li>search</li>\n</ul>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toMatch(/<script|<b>/i);

    // Published with the same body, the public page carries exactly the preview's HTML.
    const posted = await req('POST', '/v1/status-pages/acme/incidents', { title: 'Slow', body: BODY });
    expect(posted.status, posted.text).toBe(201);
    const page = await api.request('GET', '/p/acme');
    expect(page.status).toBe(200);
    expect(page.text).toContain(html);
  });

  it('stores and audits nothing, lets read-only keys preview, keeps other tenants out', async () => {
    const before = (await req('GET', '/v1/status-pages/acme/incidents')).body.incidents.length;
    const readOnly = (await req('POST', '/v1/auth/keys', { label: 'wall', is_read_only: true })).body.key;
    const res = await req('POST', preview, { body: 'x' }, readOnly);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ html: '<p>x</p>\n' });
    expect((await req('GET', '/v1/status-pages/acme/incidents')).body.incidents).toHaveLength(before);
    const actions = ((await req('GET', '/v1/audit?limit=50')).body.entries as { action: string }[]).map(
      (e) => e.action,
    );
    expect(actions.filter((a) => a.includes('preview'))).toEqual([]);

    const other = await api.createTenant('Other');
    expect((await req('POST', preview, { body: 'x' }, other.key)).status).toBe(404);
    expect((await req('POST', '/v1/status-pages/nope/incidents/preview', { body: 'x' })).status).toBe(404);
    expect((await req('POST', preview, { body: 'x' }, '')).status).toBe(401);
  });

  it('refuses what an update could not hold: 400 naming the body, 413 past the byte bound', async () => {
    for (const body of [{ body: '  ' }, { body: 'x'.repeat(4001) }, {}, { body: 'x', notify: true }]) {
      const res = await req('POST', preview, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect((await req('POST', preview, { body: 'x'.repeat(4000) })).status).toBe(200);
    const huge = await api.request('POST', preview, {
      key: api.adminKey,
      rawBody: JSON.stringify({ body: 'x'.repeat(40_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
