import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { tagProblems } from './support/html-balance.ts';

/**
 * Issue 75 point 9, on both runtimes: an open written incident counts in what the page shows, as
 * Statuspage's component status and top-level status do. Its checks say "up", but the owner wrote
 * a major outage of the API: the banner, the component, status.json and the badge say so; the
 * incidents are one list ("Current incidents"), never beside "Open incidents: None"; and the
 * archive lists no empty month from before the page existed.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');

describe.each(bothRuntimes)('an open written incident on the public page ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  /** An entity whose one push check has just reported a success: "up" by its checks. */
  const upEntity = async (slug: string, name: string) => {
    const entity = await req('POST', '/v1/blueprints/service/entities', { slug, name });
    const check = await req('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'push',
      interval_seconds: 3600,
    });
    await req('POST', `/v1/checks/${check.id}/results`, { success: true, latency_ms: 5 });
    return entity.id as string;
  };
  const ids = { api: '', web: '' };
  let incidentId = '';

  beforeAll(async () => {
    api = await start({ clock });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    ids.api = await upEntity('api', 'Public API');
    ids.web = await upEntity('web', 'Website');
    await api.drainChanges();
    await req('POST', '/v1/status-pages', {
      slug: 'acme',
      title: 'Acme',
      entity_ids: [ids.api, ids.web],
      show_incidents: true,
    });
    // Backfilled before the page existed (April): its month is in the archive, May (empty) is not.
    await req('POST', '/v1/status-pages/acme/incidents', {
      title: 'Spring outage',
      status: 'resolved',
      body: 'Done.',
      started_at: '2026-04-20T08:00:00.000Z',
      resolved_at: '2026-04-20T09:00:00.000Z',
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('says "All systems operational" while the checks are up and nothing is written', async () => {
    const json = (await api.request('GET', '/p/acme/status.json')).body;
    expect(json.state).toBe('up');
    expect(json.entities.map((e: { state: string; impact: unknown }) => [e.state, e.impact])).toEqual([
      ['up', null],
      ['up', null],
    ]);
    const html = (await api.request('GET', '/p/acme')).text;
    expect(html).toContain('All systems operational');
    expect(html).not.toContain('<h2>Current incidents</h2>');
    expect(html).not.toContain('Open incidents');
  });

  it('shows a written major outage in the banner, the component, status.json and the badge', async () => {
    const incident = await req('POST', '/v1/status-pages/acme/incidents', {
      title: 'API unreachable',
      body: 'Every request fails.',
      impact: [{ entity_id: ids.api, level: 'major_outage' }],
    });
    incidentId = incident.id;
    clock.advance(PAGE_CACHE_MS + 1);

    const json = (await api.request('GET', '/p/acme/status.json')).body;
    expect(json.state).toBe('down');
    expect(json.entities).toEqual([
      expect.objectContaining({ name: 'Public API', state: 'down', impact: 'major_outage' }),
      expect.objectContaining({ name: 'Website', state: 'up', impact: null }),
    ]);

    const page = await api.request('GET', '/p/acme');
    expect(tagProblems(page.text)).toEqual([]);
    expect(page.text).toMatch(/<div class="banner s-down" role="status">Some systems are down<\/div>/);
    expect(page.text).not.toContain('All systems operational');
    expect(page.text).toContain('<span>Public API</span><span class="state t-down">Major outage</span>');
    expect(page.text).toContain('<span>Website</span><span class="state t-up">Operational</span>');
    // One list of incidents: the written one under "Current incidents", no second, empty list.
    expect(page.text.split('<h2>Current incidents</h2>')).toHaveLength(2);
    expect(page.text).not.toContain('Open incidents');
    expect(page.text).not.toContain('Recent incidents');
    expect(page.text.split('API unreachable')).toHaveLength(2);

    const badge = (await api.request('GET', '/p/acme/badge.svg')).text;
    expect(badge).toContain('aria-label="Acme: down"');
  });

  it('shows a partial outage as such, and all operational again once it is resolved', async () => {
    await req('PATCH', `/v1/status-pages/acme/incidents/${incidentId}`, {
      impact: [{ entity_id: ids.api, level: 'partial_outage' }],
    });
    clock.advance(PAGE_CACHE_MS + 1);
    const partial = await api.request('GET', '/p/acme');
    expect(partial.text).toMatch(/<div class="banner s-degraded" role="status">Partial outage<\/div>/);
    expect(partial.text).toContain(
      '<span>Public API</span><span class="state t-degraded">Partial outage</span>',
    );
    expect((await api.request('GET', '/p/acme/status.json')).body.state).toBe('degraded');

    await req('POST', `/v1/status-pages/acme/incidents/${incidentId}/updates`, {
      status: 'resolved',
      body: 'Fixed.',
    });
    clock.advance(PAGE_CACHE_MS + 1);
    const json = (await api.request('GET', '/p/acme/status.json')).body;
    expect(json.state).toBe('up');
    expect(json.entities[0]).toMatchObject({ state: 'up', impact: null });
    expect((await api.request('GET', '/p/acme')).text).toContain('All systems operational');
  });

  it('lists the archive from the page’s creation month, an earlier month only with an incident', async () => {
    const json = (await api.request('GET', '/p/acme/status.json')).body;
    expect(json.written_incidents.archive).toEqual(['2026-06', '2026-04']);
    for (const path of ['/p/acme', '/p/acme/history', '/p/acme/history/2026-04']) {
      const html = (await api.request('GET', path)).text;
      const nav = /<nav aria-label="Incident archive">(.*?)<\/nav>/.exec(html)?.[1] ?? '';
      expect(nav, path).toBe(
        'Archive: <a href="/p/acme/history/2026-06">2026-06</a><a href="/p/acme/history/2026-04">2026-04</a>',
      );
    }
  });
});
