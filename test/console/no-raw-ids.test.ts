import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseEntity } from './entity-picker.ts';
import {
  audit,
  type ConsolePage,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  openPage,
  SHOWN_WITHIN_MS,
  signIn,
} from './support.ts';
import { useConsole } from './use-console.ts';

/**
 * Names, not ids (issue 37 item 2): with 1,010 entities, a check on each, relations, a channel, an
 * incident, an action and a status page, every console route is walked and no visible text outside
 * code and copy fields may read like an entity or check id. The seed goes through the API (push
 * checks only: nothing probes out), with the rate limit raised for the seeding.
 */

const ENTITIES = { service: 600, host: 410 } as const;
const RAW_ID = /\b(ent|chk)_[0-9A-Z]{6,}/;

/** Runs `work` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

/**
 * The visible text of the page outside code, pre, form controls and copy blocks that reads like a
 * raw id, each with a little of the text around it.
 */
function rawIdsShown(page: Page): Promise<string[]> {
  // A string, evaluated in the page (the test suite compiles without the DOM's types).
  return page.evaluate<string[]>(`(() => {
    const pattern = new RegExp(${JSON.stringify(RAW_ID.source)});
    const exempt = 'code, pre, input, textarea, .copy-block, [data-copy]';
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent || '';
      if (!parent || parent.closest(exempt) || !pattern.test(text)) continue;
      if (parent.checkVisibility() || parent.closest('select')) found.push(text.trim().slice(0, 120));
    }
    return found;
  })()`);
}

describe('the console at 1,010 entities: names, not ids; the graph and pickers at scale', () => {
  let p: ConsolePage;
  const ids: { entity: string; check: string; incident: string; action: string } = {
    entity: '',
    check: '',
    incident: '',
    action: '',
  };

  const rig = useConsole({
    env: {
      VIGIL_RATE_LIMIT_RPS: '100000',
      VIGIL_RATE_LIMIT_BURST: '100000',
      VIGIL_RATE_LIMIT_TENANT_RPS: '100000',
      VIGIL_RATE_LIMIT_TENANT_BURST: '100000',
    },
    seed: async (rig) => {
      const made: { id: string; slug: string; bp: string }[] = [];
      for (const [bp, count] of Object.entries(ENTITIES)) {
        expect((await rig.api('POST', '/v1/blueprints', { slug: bp, name: `${bp} blueprint` })).status).toBe(
          201,
        );
        const slugs = Array.from({ length: count }, (_, i) => `${bp}-${String(i).padStart(4, '0')}`);
        await pool(slugs, 8, async (slug) => {
          const res = await rig.api<{ id: string }>('POST', `/v1/blueprints/${bp}/entities`, {
            slug,
            name: `${bp === 'service' ? 'Service' : 'Host'} ${slug.slice(bp.length + 1)}`,
          });
          expect(res.status).toBe(201);
          made.push({ id: res.body.id, slug, bp });
        });
      }
      const checks: string[] = [];
      await pool(made, 8, async (e) => {
        const res = await rig.api<{ id: string }>('POST', '/v1/checks', {
          entity_id: e.id,
          check_type: 'push',
          name: `heartbeat of ${e.slug}`,
          interval_seconds: 3600,
          failure_threshold: 1,
        });
        expect(res.status).toBe(201);
        checks.push(res.body.id);
      });
      const byRef = new Map(made.map((e) => [`${e.bp}/${e.slug}`, e.id]));
      const ref = (r: string) => byRef.get(r) ?? '';
      // The last service (beyond the first page of any list) depends on a host and on another service.
      // service-0598 sorts past the first 1,000 entities of the status board (the old directory).
      for (const [from, to] of [
        ['service/service-0599', 'host/host-0409'],
        ['service/service-0599', 'service/service-0001'],
        ['service/service-0001', 'host/host-0409'],
        ['service/service-0598', 'service/service-0599'],
        ['service/service-0597', 'service/service-0598'],
        ['host/host-0001', 'host/host-0002'],
      ] as const) {
        const rel = await rig.api('POST', '/v1/relations', {
          from_entity_id: ref(from),
          to_entity_id: ref(to),
          relation_type: 'depends_on',
        });
        expect(rel.status).toBe(201);
      }
      ids.entity = ref('service/service-0599');
      const mine = await rig.api<{ id: string }[]>('GET', `/v1/checks?entity_id=${ids.entity}`);
      ids.check = mine.body[0]?.id ?? '';
      expect(
        (
          await rig.api('POST', '/v1/notify/channels', {
            name: 'Ops bus',
            channel_type: 'nats',
            config: { subject: 'ops.alerts' },
          })
        ).status,
      ).toBe(201);
      // A failing push result: the check and its entity go down, which opens an incident.
      for (const success of [true, false]) {
        const res = await rig.api('POST', `/v1/checks/${ids.check}/results`, {
          success,
          latency_ms: 5,
          ...(success ? {} : { error_message: 'connection refused' }),
        });
        expect(res.status).toBe(201);
      }
      // The incident opens from the change feed: read again (bounded) until it is there.
      for (let tries = 0; tries < 100 && !ids.incident; tries += 1) {
        const listed = await rig.api<{ incidents?: { id: string }[] }>(
          'GET',
          `/v1/incidents?entity_id=${ids.entity}`,
        );
        ids.incident = listed.body.incidents?.[0]?.id ?? '';
        if (!ids.incident) await new Promise((r) => setTimeout(r, 200));
      }
      expect(ids.incident).toMatch(/^inc_/);
      const action = await rig.api<{ id: string }>('POST', '/v1/actions', {
        name: 'Restart service',
        url: 'http://127.0.0.1:9/restart',
        trigger_type: 'state_change',
        trigger_to_state: 'down',
        check_id: ids.check,
      });
      expect(action.status, JSON.stringify(action.body)).toBe(201);
      ids.action = action.body.id;
      expect(
        (
          await rig.api('POST', '/v1/status-pages', {
            slug: 'public',
            title: 'Public status',
            entity_ids: [ids.entity, ref('host/host-0409')],
          })
        ).status,
      ).toBe(201);
      // A window covering two entities past the first 1,000 of the board (the old directory's reach).
      const window = await rig.api('POST', '/v1/maintenance', {
        name: 'Late services',
        entity_ids: [ref('service/service-0598'), ids.entity],
        starts_at: new Date(Date.now() + 86_400_000).toISOString(),
        ends_at: new Date(Date.now() + 90_000_000).toISOString(),
      });
      expect(window.status, JSON.stringify(window.body)).toBe(201);
      p = await openPage(rig);
      await signIn(p.page, rig.key);
    },
  });

  afterAll(async () => {
    await p?.close();
  });

  /** Every route of web/src/app.tsx, detail pages at a seeded object (sign-in and accept: no data shown). */
  const routes: [string, () => string][] = [
    ['status board', () => '/status'],
    ['catalog', () => '/catalog'],
    ['catalog of a blueprint', () => '/catalog?blueprint=host'],
    ['blueprint', () => '/catalog/blueprints/service'],
    ['graph', () => '/catalog/graph'],
    ['graph of a neighbourhood', () => '/catalog/graph?focus=service/service-0599'],
    ['graph of a blueprint', () => '/catalog/graph?blueprint=host'],
    ['entity', () => '/entities/service/service-0599'],
    ['entity depended on', () => '/entities/host/host-0409'],
    ['checks', () => '/checks'],
    ['new check', () => '/checks/new'],
    ['check', () => `/checks/${ids.check}`],
    ['incidents', () => '/incidents'],
    ['incident', () => `/incidents/${ids.incident}`],
    ['maintenance', () => '/maintenance'],
    ['status pages', () => '/status-pages'],
    ['notifications', () => '/notifications'],
    ['channels', () => '/channels'],
    ['actions', () => '/actions'],
    ['action', () => `/actions/${ids.action}`],
    ['skills', () => '/skills'],
    ['settings', () => '/settings'],
  ];

  it.each(routes)('shows names, never raw entity or check ids: %s', async (_, route) => {
    await p.page.goto(route());
    await p.page.locator('h1').first().waitFor({ timeout: SHOWN_WITHIN_MS });
    // Until nothing is loading any more (bounded), then what the page shows.
    await expect
      .poll(() => p.page.locator('[aria-busy="true"], .loading').count(), { timeout: SHOWN_WITHIN_MS })
      .toBe(0);
    expect(await rawIdsShown(p.page)).toEqual([]);
    expectNoConsoleErrors(p);
  });

  it("names an entity's relations, also with entities past the first 1,000", async () => {
    await p.page.goto('/entities/service/service-0599');
    const relations = p.page.locator('section.card', {
      has: p.page.getByRole('heading', { name: 'Relations', exact: true }),
    });
    await relations.getByRole('link', { name: 'Service 0598', exact: true }).waitFor();
    await expectText(relations, /Service 0598\s*unknown\s*depends on this/);
    await relations.getByRole('link', { name: 'Host 0409', exact: true }).waitFor();
  });

  it('names the entities of a maintenance window and of a status page past the first 1,000, and picks by search', async () => {
    // No page here reads the old directory (the first 1,000 entities of the board): names come from the answers.
    const directoryReads: string[] = [];
    const listen = (request: { url(): string }) => {
      if (/\/v1\/status\?limit=1000/.test(request.url())) directoryReads.push(request.url());
    };
    p.page.on('request', listen);
    await p.page.goto('/maintenance');
    const covers = p.page.getByRole('table', { name: 'Maintenance windows' }).getByRole('row').nth(1);
    await covers.getByRole('link', { name: 'Service 0598', exact: true }).waitFor();
    expect(await covers.getByRole('link', { name: 'Service 0599', exact: true }).getAttribute('href')).toBe(
      '/entities/service/service-0599',
    );
    await covers.getByRole('button', { name: 'Edit Late services' }).click();
    const windowForm = p.page.getByRole('form', { name: /Late services/ });
    await expectText(
      windowForm.getByRole('list', { name: 'Covered entities' }).getByRole('listitem').first(),
      /^Service 0598 \(service\/service-0598\)/,
    );

    await p.page.goto('/status-pages');
    await p.page.getByRole('button', { name: 'Edit Public status' }).click();
    const form = p.page.getByRole('form', { name: 'Edit Public status' });
    const shown = form.getByRole('list', { name: 'Shown entities' }).getByRole('listitem');
    await expectText(shown.first(), /^Service 0599 \(service\/service-0599\)/);
    await chooseEntity(form, 'Entity to add', 'service 0598', 'Service 0598');
    await expectCount(shown, 3);
    await form.getByRole('button', { name: 'Save status page' }).click();
    await p.page.getByRole('form', { name: 'New status page' }).waitFor();
    const saved = await rig.api<{ entities: { name: string }[] }>('GET', '/v1/status-pages/public');
    expect(saved.body.entities.map((e) => e.name)).toEqual(['Service 0599', 'Host 0409', 'Service 0598']);
    p.page.off('request', listen);
    expect(directoryReads).toEqual([]);
    expect(await audit(p.page)).toEqual([]);
  });

  it('asks a large catalog for a blueprint or an entity before drawing, with the count', async () => {
    await p.page.goto('/catalog/graph');
    await expectText(p.page.getByRole('main'), /The catalog has 1010 entities: too many to draw at once/);
    await expectCount(p.page.locator('.graph-node'), 0);
  });

  it('draws the depends_on graph of one blueprint, only entities with a relation', async () => {
    await p.page.goto('/catalog/graph');
    await p.page.getByLabel('Blueprint', { exact: true }).selectOption('host');
    await expect.poll(() => new URL(p.page.url()).searchParams.get('blueprint')).toBe('host');
    // host-0001 → host-0002, and service-0599 / service-0001 → host-0409.
    await expectCount(p.page.locator('.graph-node'), 5);
    await expectCount(p.page.locator('.react-flow__edge'), 3);
  });

  it('focuses an entity found by search and draws its neighbourhood, hops from the select', async () => {
    await p.page.goto('/catalog/graph');
    await chooseEntity(p.page, 'Focus on an entity', 'service 0598', 'Service 0598');
    await expect.poll(() => new URL(p.page.url()).searchParams.get('focus')).toBe('service/service-0598');
    // Two hops around 0598: 0597 → 0598 → 0599 → 0001 and host-0409 (0001 → host-0409 is drawn too).
    await expectText(p.page.locator('[data-selected-entity="true"]'), /Service 0598/);
    await expectCount(p.page.locator('.graph-node'), 5);
    await p.page.getByLabel('Neighbourhood').selectOption('1');
    await expectCount(p.page.locator('.graph-node'), 3);
    // The blast radius of the focused entity: what depends on it, by name.
    await expectText(p.page.getByTestId('blast-count'), '1 entity depends on it, directly or transitively.');
    await p.page.getByRole('list').filter({ hasText: 'Service 0597' }).first().waitFor();
    expect(await audit(p.page)).toEqual([]);
  });

  it('counts the whole blast radius from the server, beyond the hops drawn', async () => {
    await p.page.goto('/catalog/graph?focus=host/host-0409&hops=1');
    // One hop around host-0409: service-0599 and service-0001 depend on it directly.
    await expectCount(p.page.locator('.graph-node'), 3);
    // 0598 and 0597 depend on it through 0599.
    await expectText(p.page.getByTestId('blast-count'), '4 entities depend on it, directly or transitively.');
    await p.page.getByRole('link', { name: 'Service 0597', exact: true }).waitFor();
  });

  it('filters the entities list on the server, the filter in the URL', async () => {
    await p.page.goto('/catalog?blueprint=service&q=service%2005');
    const table = p.page.getByRole('region', { name: 'Entities', exact: true });
    // Service 0500 … 0599: one page of 25, and a next page.
    await expectCount(table.getByRole('row'), 26);
    await p.page.getByRole('button', { name: 'Next page' }).click();
    await table.getByRole('link', { name: 'Service 0525', exact: true }).waitFor();
    await p.page.getByLabel('Search entities').fill('Service 0598');
    await expect.poll(() => new URL(p.page.url()).searchParams.get('q')).toBe('Service 0598');
    await expectCount(table.getByRole('row'), 2);
  });

  it('finds a raw id when a page shows one (the scan is not blind)', async () => {
    await p.page.goto('/status');
    await p.page.locator('h1').first().waitFor();
    await p.page.evaluate(`(() => {
      const main = document.querySelector('main');
      const note = document.createElement('p');
      note.textContent = ${JSON.stringify(`${ids.entity} depends on this`)};
      const exempt = document.createElement('code');
      exempt.textContent = ${JSON.stringify(ids.entity)};
      main.append(note, exempt);
    })()`);
    expect(await rawIdsShown(p.page)).toEqual([`${ids.entity} depends on this`]);
  });
});
