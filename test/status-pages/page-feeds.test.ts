import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { feedProblems, feedText } from './support/feed-validator.ts';

/**
 * A page's RSS 2.0 and Atom feeds (issue 54 item 3), on both runtimes: valid against their
 * schemas (a real validator, xmllint), one entry per published incident with its updates, newest
 * update first; drafts and other tenants' incidents never; XML-special characters and Markdown
 * kept well formed and escaped; served keyless with the public routes' headers; 404 for unknown
 * pages; found from the page by <link rel="alternate"> and visible links.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const a = (name: string) => `*[local-name()='${name}']`;
const TRICKY_TITLE = 'Q&A <b>"bold"</b> ]]> \u0001 done';

describe.each(bothRuntimes)('status page feeds ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const req = (method: string, path: string, body?: unknown) => call(api.adminKey, method, path, body);
  const feed = async (path: string) => {
    const res = await api.request('GET', path);
    expect(res.status, res.text).toBe(200);
    return res;
  };

  beforeAll(async () => {
    api = await start({ clock });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    const entity = await req('POST', '/v1/blueprints/service/entities', { slug: 'api', name: 'Public API' });
    await req('POST', '/v1/status-pages', { slug: 'feedy', title: 'Feedy & Co', entity_ids: [entity.id] });
    const base = '/v1/status-pages/feedy/incidents';
    await req('POST', base, {
      title: 'Old one',
      status: 'resolved',
      body: 'Long ago.',
      started_at: new Date(T0 - 120 * DAY).toISOString(),
      resolved_at: new Date(T0 - 120 * DAY + HOUR).toISOString(),
    });
    await req('POST', base, {
      title: 'Last week',
      status: 'resolved',
      body: 'Fixed *quickly*.',
      started_at: new Date(T0 - 7 * DAY).toISOString(),
      resolved_at: new Date(T0 - 7 * DAY + HOUR).toISOString(),
    });
    await req('POST', base, { title: 'Secret draft', body: 'Not yet.', draft: true });
    const open = await req('POST', base, {
      title: TRICKY_TITLE,
      body: 'We see **errors** & <script>alert(1)</script> in `a < b`.',
      impact: [{ entity_id: entity.id, level: 'partial_outage' }],
    });
    clock.advance(60_000);
    await req('POST', `${base}/${open.id}/updates`, {
      status: 'identified',
      body: 'A bad deploy; see [the notice](https://example.com/n?a=1&b=2).',
    });
    // Another tenant's page and incident: never in this page's feeds, nor this one's in its.
    const other = await api.createTenant('Other');
    await call(other.key, 'POST', '/v1/status-pages', { slug: 'otherco', title: 'Other', entity_ids: [] });
    await call(other.key, 'POST', '/v1/status-pages/otherco/incidents', {
      title: 'Other tenant outage',
      body: 'x',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves RSS 2.0 that validates, newest update first, with headers of a keyless cached route', async () => {
    const res = await feed('/p/feedy/feed.rss');
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(await feedProblems('rss', res.text)).toEqual([]);
    const titles = await feedText(res.text, `//${a('item')}[1]/${a('title')}`);
    expect(titles).toBe('Q&amp;A &lt;b&gt;&quot;bold&quot;&lt;/b&gt; ]]&gt; \uFFFD done (Identified)');
    expect(await feedText(res.text, `//${a('item')}[2]/${a('title')}`)).toContain('Last week (Resolved)');
    expect(await feedText(res.text, `count(//${a('item')})`)).toBe('2');
    expect(await feedText(res.text, `/rss/channel/link`)).toMatch(/^https?:\/\/[^/]+\/p\/feedy$/);
    // An item's date is its newest update (the "Identified" one, a minute after the start), as the docs say.
    expect(await feedText(res.text, `//${a('item')}[1]/${a('pubDate')}`)).toBe(
      new Date(T0 + 60_000).toUTCString(),
    );
  });

  it('serves Atom that validates against RFC 4287’s schema, one entry per incident with its updates', async () => {
    const res = await feed('/p/feedy/feed.atom');
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect(await feedProblems('atom', res.text)).toEqual([]);
    const entry = `//${a('entry')}[1]`;
    const content = await feedText(res.text, `${entry}/${a('content')}`);
    // The Markdown renderer's HTML, newest update first; raw HTML shown as text, never as markup.
    expect(content.indexOf('Identified')).toBeLessThan(content.indexOf('Investigating'));
    expect(content).toContain(
      '<a href="https://example.com/n?a=1&amp;b=2" rel="nofollow noopener">the notice</a>',
    );
    expect(content).toContain(
      '<strong>errors</strong> &amp; &lt;script&gt;alert(1)&lt;/script&gt; in <code>a &lt; b</code>',
    );
    expect(content).toContain('Affects Public API (partial outage)');
    expect(await feedText(res.text, `${entry}/${a('published')}`)).toBe(new Date(T0).toISOString());
    expect(await feedText(res.text, `${entry}/${a('updated')}`)).toBe(new Date(T0 + 60_000).toISOString());
    expect(content).not.toMatch(/<script/i);
    const id = await feedText(res.text, `${entry}/${a('id')}`);
    expect(id).toMatch(/^tag:[^,]+,2026:status-page\/feedy\/incident\/[0-9a-f]{32}$/);
    // Stable: the same incident keeps its id once it has another update and the cache has passed.
    clock.advance(31_000);
    expect(await feedText((await feed('/p/feedy/feed.atom')).text, `${entry}/${a('id')}`)).toBe(id);
  });

  it('never carries a draft, an incident older than 90 days or another tenant’s incident', async () => {
    for (const path of ['/p/feedy/feed.rss', '/p/feedy/feed.atom']) {
      const { text } = await feed(path);
      expect(text).not.toContain('Secret draft');
      expect(text).not.toContain('Not yet.');
      expect(text).not.toContain('Old one');
      expect(text).not.toContain('Other tenant outage');
    }
    for (const path of ['/p/otherco/feed.rss', '/p/otherco/feed.atom']) {
      const { text } = await feed(path);
      expect(text).toContain('Other tenant outage');
      expect(text).not.toContain('Last week');
    }
  });

  it('answers 404 for an unknown or malformed page, and needs no key', async () => {
    for (const path of ['/p/nope/feed.rss', '/p/nope/feed.atom', '/p/NOT%20A%20SLUG/feed.rss']) {
      const res = await api.request('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
      expect(res.headers['cache-control']).toBe('public, max-age=30');
    }
  });

  it('is found from the page: <link rel="alternate"> for both, and visible links', async () => {
    const res = await api.request('GET', '/p/feedy');
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Feedy &amp; Co (RSS)" href="/p/feedy/feed.rss">',
    );
    expect(res.text).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Feedy &amp; Co (Atom)" href="/p/feedy/feed.atom">',
    );
    expect(res.text).toContain('<a href="/p/feedy/feed.rss">RSS</a>');
    expect(res.text).toContain('<a href="/p/feedy/feed.atom">Atom</a>');
  });
});
