import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * A public status page shows an entity covered by a maintenance window as "Under maintenance"
 * (HTML, status.json, badge), and leaves it out of the page's overall state; an entity down
 * outside any window is still "Down".
 */
describe.each(runtimes)('a status page during maintenance ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const req = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });
  const ids: Record<string, string> = {};

  /** An entity whose push check has failed once (threshold 1): down. */
  const downEntity = async (slug: string, name: string) => {
    const entity = await req('POST', '/v1/blueprints/service/entities', { slug, name });
    const check = await req('POST', '/v1/checks', {
      entity_id: entity.body.id,
      check_type: 'push',
      interval_seconds: 3600,
      failure_threshold: 1,
    });
    expect(check.status, check.text).toBe(201);
    await req('POST', `/v1/checks/${check.body.id}/results`, { success: false, error_message: 'boom' });
    ids[slug] = entity.body.id;
  };

  beforeAll(async () => {
    api = await start();
    await req('POST', '/v1/blueprints', { slug: 'service', name: 'Service' });
    await downEntity('db', 'Database');
    await downEntity('api', 'Public API');
    await api.drainChanges();
    const window = await req('POST', '/v1/maintenance', {
      name: 'Database upgrade',
      entity_ids: [ids.db],
      starts_at: new Date(Date.now() - 60_000).toISOString(),
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(window.status, window.text).toBe(201);
    for (const [slug, entityIds] of [
      ['upkeep', [ids.db]],
      ['mixed', [ids.db, ids.api]],
    ] as const) {
      const page = await req('POST', '/v1/status-pages', {
        slug,
        title: `Acme ${slug}`,
        entity_ids: entityIds,
      });
      expect(page.status, page.text).toBe(201);
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the covered entity as under maintenance in the HTML, the JSON and the badge', async () => {
    const json = await api.request('GET', '/p/upkeep/status.json');
    expect(json.body).toMatchObject({
      state: 'unknown',
      maintenance: true,
      entities: [{ name: 'Database', state: 'down', in_maintenance: true }],
    });
    const html = (await api.request('GET', '/p/upkeep')).text;
    expect(html).toContain('<span class="state t-maintenance">Under maintenance</span>');
    expect(html).toContain('role="status">Under maintenance</div>');
    expect(html).not.toContain('>Down<');
    expect(html).not.toContain('Database upgrade');
    const badge = (await api.request('GET', '/p/upkeep/badge.svg')).text;
    expect(badge).toContain('Acme upkeep: maintenance');
  });

  it('still shows an entity outside the window as down, and the page as down', async () => {
    const json = await api.request('GET', '/p/mixed/status.json');
    expect(json.body).toMatchObject({
      state: 'down',
      maintenance: true,
      entities: [
        { name: 'Database', in_maintenance: true },
        { name: 'Public API', state: 'down', in_maintenance: false },
      ],
    });
    const html = (await api.request('GET', '/p/mixed')).text;
    expect(html).toContain('<span class="state t-down">Down</span>');
    expect(html).toContain('role="status">Some systems are down</div>');
    expect((await api.request('GET', '/p/mixed/badge.svg')).text).toContain('Acme mixed: down');
  });
});
