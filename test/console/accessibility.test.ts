import { describe, expect, it, vi } from 'vitest';
import { audit, expectCount, expectNoConsoleErrors, openPage } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * Every page of the console, on real data, audited with axe-core (WCAG 2 A and AA: labels, names,
 * contrast, landmarks) at 1280 px and 390 px wide; at 390 px the page must not scroll sideways.
 */

describe('console accessibility', { timeout: 120_000 }, () => {
  const pages: [string, string][] = [];

  const rig = useConsole({
    timeout: 180_000,
    seed: async (rig) => {
      const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const res = await rig.api<T>(method, path, body);
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        return res.body;
      };
      const bp = await call<{ slug: string }>('POST', '/v1/blueprints', {
        slug: 'service',
        name: 'Service',
        fields: [
          { name: 'team', field_type: 'string', required: true, sort_order: 1 },
          { name: 'port', field_type: 'number', required: false, sort_order: 2 },
        ],
      });
      const api = await call<{ id: string; slug: string }>('POST', `/v1/blueprints/${bp.slug}/entities`, {
        slug: 'api',
        name: 'API',
        fields: { team: 'core', port: 443 },
      });
      const db = await call<{ id: string }>('POST', `/v1/blueprints/${bp.slug}/entities`, {
        slug: 'db',
        name: 'Database',
        fields: { team: 'data' },
      });
      await call('POST', '/v1/relations', {
        from_entity_id: api.id,
        to_entity_id: db.id,
        relation_type: 'depends_on',
      });
      const check = await call<{ id: string }>('POST', '/v1/checks', {
        entity_id: api.id,
        check_type: 'push',
        interval_seconds: 60,
      });
      await call('POST', `/v1/checks/${check.id}/heartbeat`);
      // The database goes down after being up: an incident opens (from the change feed) with a timeline.
      const dbCheck = await call<{ id: string }>('POST', '/v1/checks', {
        entity_id: db.id,
        check_type: 'push',
        interval_seconds: 60,
        failure_threshold: 1,
      });
      await call('POST', `/v1/checks/${dbCheck.id}/results`, { success: true, latency_ms: 5 });
      await call('POST', `/v1/checks/${dbCheck.id}/results`, { success: false, latency_ms: 5 });
      const incident = await vi.waitFor(
        async () => {
          const list = await call<{ incidents: { id: string }[] }>('GET', `/v1/incidents?entity_id=${db.id}`);
          expect(list.incidents).toHaveLength(1);
          return list.incidents[0] as { id: string };
        },
        { timeout: 10_000, interval: 100 },
      );
      // One window on now (the entity page's "in maintenance" badge) and one recurring.
      await call('POST', '/v1/maintenance', {
        name: 'API deploy',
        entity_ids: [api.id],
        starts_at: new Date(Date.now() - 60_000).toISOString(),
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await call('POST', '/v1/maintenance', {
        name: 'Nightly backup',
        blueprint_slugs: [bp.slug],
        include_dependents: true,
        cron: '30 2 * * *',
        duration_seconds: 3600,
        timezone: 'Europe/Berlin',
      });
      await call('POST', `/v1/checks/${check.id}/policy/channels`, {
        channel_type: 'nats',
        config: { subject: 'ops.alerts' },
      });
      const shared = await call<{ id: string }>('POST', '/v1/notify/channels', {
        name: 'On-call',
        channel_type: 'nats',
        config: { subject: 'ops.oncall' },
      });
      await call('POST', `/v1/checks/${check.id}/policy/channels`, { channel_id: shared.id });
      await call('POST', '/v1/notify/routes', { match: { to_states: ['down'] }, channel_ids: [shared.id] });
      const action = await call<{ id: string }>('POST', '/v1/actions', {
        name: 'Deploy',
        url: 'https://{{host}}/hook',
      });
      await call('POST', '/v1/skills', {
        slug: 'ops',
        name: 'Ops',
        version: '1.0.0',
        tools: [{ name: 'ops_tool', description: 'A tool', inputSchema: { type: 'object' } }],
      });
      await call('POST', '/v1/status-pages', {
        slug: 'acme',
        title: 'Acme status',
        description: 'Our public services',
        entity_ids: [api.id, db.id],
      });
      pages.push(
        ['status', '/status'],
        ['incidents', '/incidents'],
        ['incident', `/incidents/${incident.id}`],
        ['maintenance', '/maintenance'],
        ['locations', '/locations'],
        ['integrations', '/integrations'],
        ['status pages', '/status-pages'],
        ['catalog', '/catalog'],
        ['blueprint', `/catalog/blueprints/${bp.slug}`],
        ['graph', '/catalog/graph'],
        ['entity', `/entities/${bp.slug}/${api.slug}`],
        ['entity with incidents', `/entities/${bp.slug}/db`],
        ['checks', '/checks'],
        ['new check', `/checks/new?entity_id=${api.id}`],
        ['check', `/checks/${check.id}`],
        ['notifications', '/notifications'],
        ['channels', '/channels'],
        ['actions', '/actions'],
        ['action', `/actions/${action.id}`],
        ['skills', '/skills'],
        ['settings', '/settings'],
      );
    },
  });

  it('has no axe violations on the sign-in, invitation and password reset pages', async () => {
    const p = await openPage(rig);
    await p.page.goto('/');
    await p.page.getByLabel('Password').waitFor();
    expect(await audit(p.page)).toEqual([]);
    // The operators' key form, unfolded.
    await p.page.getByText('Sign in with an API key').click();
    await p.page.getByLabel('API key').waitFor();
    expect(await audit(p.page)).toEqual([]);
    for (const path of ['/accept?token=not-a-token', '/forgot-password', '/reset?token=not-a-token']) {
      await p.page.goto(path);
      await p.page.getByRole('heading', { level: 1 }).waitFor();
      expect(await audit(p.page), path).toEqual([]);
    }
    expectNoConsoleErrors(p);
    await p.close();
  });

  for (const width of [1280, 390]) {
    it(`has no axe violations on any signed-in page at ${width} px`, async () => {
      const p = await openSignedIn(rig, { width });
      const found: Record<string, string[]> = {};
      for (const [name, path] of pages) {
        await p.page.goto(path);
        await p.page.getByRole('heading', { level: 1 }).waitFor();
        // Settle: the page's queries answered (no loading line left).
        await expectCount(p.page.getByText(/^Loading/), 0, path);
        const violations = await audit(p.page);
        if (width <= 390) {
          const overflow = await p.page.evaluate<number>(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          );
          if (overflow > 0)
            violations.push(
              `scrolls sideways by ${overflow} px`,
              // The outermost elements past the right edge, to say what overflows.
              await p.page.evaluate<string>(
                `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width}).slice(0, 4).map((e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')).join(' > ')`,
              ),
            );
        }
        if (violations.length > 0) found[name] = violations;
      }
      expect(found).toEqual({});
      expectNoConsoleErrors(p);
      await p.close();
    });
  }

  it('reaches every main page by keyboard from the skip link', async () => {
    const p = await openSignedIn(rig);
    await p.page.keyboard.press('Tab');
    expect(await p.page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
    const reached: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      await p.page.keyboard.press('Tab');
      const text = await p.page.evaluate<string>(
        "document.activeElement.closest('nav') ? document.activeElement.textContent : ''",
      );
      if (text) reached.push(text);
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        'Status',
        'Incidents',
        'Maintenance',
        'Status pages',
        'Entities',
        'Graph',
        'Checks',
        'Channels & routes',
        'Actions',
        'Settings',
        'Audit',
      ]),
    );
    await p.page.getByRole('link', { name: 'Checks' }).press('Enter');
    await p.page.getByRole('heading', { level: 1, name: /Checks/ }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });
});
