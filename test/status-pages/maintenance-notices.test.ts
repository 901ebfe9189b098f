import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { PAGE_CACHE_MS } from '../../lib/status-pages/public/public-routes.ts';
import { tenantPk } from '../../lib/store/partitions.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { tagProblems } from './support/html-balance.ts';

/**
 * Maintenance notices on the public page, on both engines (the windows' new fields stored and read
 * back by each): announced windows that cover one of the page's entities, by id or blueprint,
 * are listed ahead (from announce_from, or a recurring run's lead), in progress and for 24 h after,
 * in the HTML and status.json, with the page's own entity names only and the note's Markdown; a
 * window not announced, or over other entities only, is not; a window stored before the fields
 * existed reads as not announced.
 */

const T0 = Date.parse('2026-06-10T12:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(bothRuntimes)('maintenance notices on the public page ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(T0);
  const ids: Record<string, string> = {};
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await api.request(method, path, { key: api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const window = (name: string, fields: Record<string, unknown>) =>
    req('POST', '/v1/maintenance', { name, ...fields });
  /** The page as JSON and HTML, past the 30 s cache of the last read. */
  const read = async () => {
    clock.advance(PAGE_CACHE_MS + 1000);
    const json = await api.request('GET', '/p/acme/status.json');
    expect(json.status, json.text).toBe(200);
    const html = await api.request('GET', '/p/acme');
    expect(tagProblems(html.text)).toEqual([]);
    expect(html.text).not.toMatch(/<script/i);
    return { notices: json.body.maintenance_notices, html: html.text, json: json.text };
  };

  beforeAll(async () => {
    api = await start({ clock });
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    await req('POST', '/v1/blueprints', { slug: 'jobs', name: 'Jobs' });
    for (const [blueprint, slug, name] of [
      ['service', 'db', 'Database'],
      ['service', 'api', 'Public API'],
      ['service', 'secret', 'Secret backend'],
      ['jobs', 'worker', 'Worker'],
    ] as const)
      ids[slug] = (await req('POST', `/v1/blueprints/${blueprint}/entities`, { slug, name })).id;
    await req('POST', '/v1/status-pages', {
      slug: 'acme',
      title: 'Acme',
      entity_ids: [ids.db, ids.api, ids.worker],
    });
    await window('Database upgrade', {
      entity_ids: [ids.db],
      starts_at: iso(T0 + 2 * HOUR),
      ends_at: iso(T0 + 3 * HOUR),
      announce: true,
      announce_from: iso(T0 + HOUR),
      public_note: 'Writes pause for *a minute*; see [the plan](https://example.com/plan).\n\n<b>bold</b>',
    });
    await window('API deploy', {
      entity_ids: [ids.secret, ids.api],
      starts_at: iso(T0 - 10 * 60_000),
      ends_at: iso(T0 + 50 * 60_000),
      announce: true,
    });
    await window('Quiet fix', {
      entity_ids: [ids.db],
      starts_at: iso(T0 - 60_000),
      ends_at: iso(T0 + HOUR),
    });
    await window('Backend move', {
      entity_ids: [ids.secret],
      starts_at: iso(T0 - 60_000),
      ends_at: iso(T0 + HOUR),
      announce: true,
    });
    await window('Queue drain', {
      blueprint_slugs: ['jobs'],
      cron: '0 3 * * *',
      duration_seconds: 1800,
      announce: true,
      announce_lead_seconds: 18 * 3600,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists in progress and due notices of the page’s entities, by their names only, and nothing else', async () => {
    const { notices, html, json } = await read();
    expect(notices).toEqual([
      {
        name: 'API deploy',
        status: 'in_progress',
        starts_at: iso(T0 - 10 * 60_000),
        ends_at: iso(T0 + 50 * 60_000),
        components: ['Public API'],
        public_note: null,
      },
      {
        name: 'Queue drain',
        status: 'scheduled',
        starts_at: '2026-06-11T03:00:00.000Z',
        ends_at: '2026-06-11T03:30:00.000Z',
        components: ['Worker'],
        public_note: null,
      },
      // This morning's run ended less than 24 h ago.
      {
        name: 'Queue drain',
        status: 'completed',
        starts_at: '2026-06-10T03:00:00.000Z',
        ends_at: '2026-06-10T03:30:00.000Z',
        components: ['Worker'],
        public_note: null,
      },
    ]);
    for (const text of [html, json]) {
      expect(text).not.toContain('Secret backend');
      expect(text).not.toContain('Backend move');
      expect(text).not.toContain('Quiet fix');
      expect(text).not.toContain('Database upgrade');
    }
    expect(html).toContain(
      `<h2>Maintenance</h2><ul><li class="inc"><h3>API deploy</h3><p class="meta"><span class="st">In progress</span>, <time datetime="${iso(T0 - 10 * 60_000)}">2026-06-10 11:50 UTC</time> to <time datetime="${iso(T0 + 50 * 60_000)}">2026-06-10 12:50 UTC</time></p><p class="meta">Affects Public API</p></li>`,
    );
    expect(html).toContain(
      '<h3>Queue drain</h3><p class="meta"><span class="st">Scheduled maintenance</span>',
    );
  });

  it('lists a one-off window from its announce_from, with its note as safe Markdown, and completed for 24 h after its end', async () => {
    clock.advance(HOUR);
    let { notices, html } = await read();
    expect(notices.map((n: { name: string; status: string }) => [n.name, n.status])).toEqual([
      ['Database upgrade', 'scheduled'],
      ['Queue drain', 'scheduled'],
      ['API deploy', 'completed'],
      ['Queue drain', 'completed'],
    ]);
    expect(html).toContain(
      '<p>Writes pause for <em>a minute</em>; see <a href="https://example.com/plan" rel="nofollow noopener">the plan</a>.</p>\n<p>&lt;b&gt;bold&lt;/b&gt;</p>',
    );
    expect(html).toContain('<p class="meta">Affects Database</p>');

    // Past the upgrade's start: in progress; a day after its end: gone.
    clock.advance(HOUR + 60_000);
    ({ notices } = await read());
    expect(notices.find((n: { name: string }) => n.name === 'Database upgrade')?.status).toBe('in_progress');
    clock.advance(HOUR + 24 * HOUR);
    ({ notices, html } = await read());
    expect(notices.map((n: { name: string }) => n.name)).not.toContain('Database upgrade');
    expect(notices.map((n: { name: string }) => n.name)).not.toContain('API deploy');
    expect(html).not.toContain('Database upgrade');
  });

  it('reads a window stored before the notice fields as not announced', async () => {
    const id = newId('mnt', clock.now());
    const at = iso(clock.now());
    await api.table.transact([
      {
        type: 'put',
        item: {
          pk: tenantPk(api.tenantId),
          sk: `MAINT#${id}`,
          entity: 'maintenance_window',
          schema_version: 1,
          id,
          tenant_id: api.tenantId,
          name: 'Old window',
          entity_ids: [ids.db],
          blueprint_slugs: [],
          include_dependents: false,
          starts_at: iso(clock.now() - 60_000),
          ends_at: iso(clock.now() + HOUR),
          cron: null,
          duration_seconds: null,
          timezone: null,
          created_at: at,
          updated_at: at,
          version: 1,
        },
      },
    ]);
    expect(await req('GET', `/v1/maintenance/${id}`)).toMatchObject({
      name: 'Old window',
      active: true,
      announce: false,
      announce_from: null,
      announce_lead_seconds: null,
      announced_at: null,
      public_note: null,
    });
    const { html, notices } = await read();
    expect(notices.map((n: { name: string }) => n.name)).not.toContain('Old window');
    expect(html).not.toContain('Old window');
    // It still covers the entity for alerts: the page says under maintenance.
    expect(html).toContain('<span>Database</span><span class="state t-maintenance">Under maintenance</span>');
  });
});
