import { describe, expect, it } from 'vitest';
import { chooseEntity } from './entity-picker.ts';
import {
  audit,
  expectCount,
  expectNoConsoleErrors,
  expectText,
  onRequestHeaders,
  SHOWN_WITHIN_MS,
  screenshot,
  seedServices,
} from './support.ts';
import { openSignedIn, seedPushCheck, useConsole } from './use-console.ts';

/**
 * The Status pages editor against a real local runtime: a member creates a page through the form
 * (listed with its entity count and a new-tab link to /p/{slug}), a taken slug shows the 409 at the
 * slug field, edits and deletes one, sets a custom domain (one off the server's list is the API's
 * 400 at the field, one another page holds its 409 there), sees it listed as a new-tab link to
 * https://{domain}/ and clears it; a read-only key finds no write control. Then the public page
 * in Chromium, in a fresh browser context that never signed in: no key stored, no Authorization
 * sent, the CSP header on and nothing violating it, axe-core clean, the entities' names, states and
 * 90 days of bars shown; the badge renders.
 */

interface StatusPage {
  slug: string;
  title: string;
  description: string | null;
  entity_ids: string[];
  show_incidents: boolean;
  auto_publish_drafts_after_minutes: number | null;
  visibility: string;
  domain: string | null;
}

/** The custom domains the rig's server serves pages on (VIGIL_PAGE_DOMAINS). */
const ACME_DOMAIN = 'status.acme.test';
const SPARE_DOMAIN = 'status.spare.test';

describe('console status pages', { timeout: 90_000 }, () => {
  let billingId: string;
  let searchId: string;

  const pages = async () =>
    (await rig.api<{ status_pages: StatusPage[] }>('GET', '/v1/status-pages')).body.status_pages;

  /** A push check on the entity, with these results in turn. */
  async function report(entityId: string, results: boolean[]) {
    const checkId = await seedPushCheck(rig, entityId);
    for (const success of results)
      expect(
        (await rig.api('POST', `/v1/checks/${checkId}/results`, { success, latency_ms: 5 })).status,
      ).toBe(201);
  }

  const rig = useConsole({
    env: { VIGIL_PAGE_DOMAINS: `${ACME_DOMAIN},${SPARE_DOMAIN}` },
    seed: async (rig) => {
      ({ billing: billingId, search: searchId } = await seedServices(rig, 'Billing', 'Search'));
      // Billing up then down (today below 100 %, an open incident); Search up.
      await report(billingId, [true, false]);
      await report(searchId, [true]);
    },
  });

  it('creates a page through the form; it is listed with its entities and a link to the public page', async () => {
    const p = await openSignedIn(rig);
    await p.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Status pages' })
      .click();
    await p.page.getByRole('heading', { level: 1, name: 'Status pages' }).waitFor();
    await p.page.getByText('No status pages yet.').waitFor();

    const form = p.page.getByRole('form', { name: 'New status page' });
    await form.getByLabel(/^Slug/).fill('acme');
    await form.getByLabel(/^Title/).fill('Acme status');
    await form.getByLabel(/^Description/).fill('How our services are doing');
    await chooseEntity(form, 'Entity to add', 'bill', 'Billing');
    await chooseEntity(form, 'Entity to add', 'sea', 'Search');
    await expectCount(form.getByRole('list', { name: 'Shown entities' }).getByRole('listitem'), 2);
    await form.getByRole('button', { name: 'Create status page' }).click();
    await expectText(
      form.getByRole('status'),
      'The status page Acme status was created: /p/acme (opens in a new tab).',
    );

    const table = p.page.getByRole('table', { name: 'Status pages' });
    await expectCount(table.getByRole('row'), 2);
    const cells = table.getByRole('row').nth(1).getByRole('cell');
    await expectText(cells.nth(0), 'Acme status');
    await expectText(cells.nth(1), 'acme');
    await expectText(cells.nth(2), '2');
    const link = cells.nth(3).getByRole('link', { name: /^\/p\/acme/ });
    expect(await link.getAttribute('href')).toBe('/p/acme');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    expect(await pages()).toMatchObject([
      {
        slug: 'acme',
        title: 'Acme status',
        description: 'How our services are doing',
        entity_ids: [billingId, searchId],
        show_incidents: true,
      },
    ]);
    await screenshot(p.page, 'status-pages');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a taken slug and a bad slug at the slug field', async () => {
    const p = await openSignedIn(rig, { path: '/status-pages' });
    const form = p.page.getByRole('form', { name: 'New status page' });
    const slug = form.getByLabel(/^Slug/);
    await slug.fill('acme');
    await form.getByLabel(/^Title/).fill('Another');
    await form.getByRole('button', { name: 'Create status page' }).click();
    await expect.poll(() => slug.getAttribute('aria-invalid'), { timeout: SHOWN_WITHIN_MS }).toBe('true');
    await expectText(form.locator('.field-error'), 'The status page slug acme is taken.');
    await expectText(form.getByRole('alert').locator('strong'), 'The status page was not created.');

    await slug.fill('Not A Slug');
    await form.getByRole('button', { name: 'Create status page' }).click();
    await expectText(form.locator('.field-error'), /^Use lower-case letters \(a-z\), digits and hyphens/);
    expect(await form.getByLabel(/^Title/).getAttribute('aria-invalid')).toBeNull();
    expect((await pages()).map((x) => x.slug)).toEqual(['acme']);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('edits a page and deletes one', async () => {
    expect(
      (await rig.api('POST', '/v1/status-pages', { slug: 'old', title: 'Old page', entity_ids: [searchId] }))
        .status,
    ).toBe(201);
    const p = await openSignedIn(rig, { path: '/status-pages' });
    const table = p.page.getByRole('table', { name: 'Status pages' });
    await expectCount(table.getByRole('row'), 3);
    await table.getByRole('button', { name: 'Edit Acme status' }).click();
    const form = p.page.getByRole('form', { name: 'Edit Acme status' });
    expect(await form.getByLabel(/^Slug/).isDisabled()).toBe(true);
    expect(await form.getByLabel(/^Title/).inputValue()).toBe('Acme status');
    await form.getByLabel(/^Title/).fill('Acme public status');
    await form.getByRole('button', { name: 'Remove Search (svc/search)' }).click();
    await form.getByLabel('Show incidents').uncheck();
    await form.getByRole('button', { name: 'Save status page' }).click();
    await p.page.getByRole('form', { name: 'New status page' }).waitFor();
    const row = table.getByRole('row').filter({ hasText: 'Acme public status' });
    await expectText(row.getByRole('cell').nth(2), '1');
    expect((await pages()).find((x) => x.slug === 'acme')).toMatchObject({
      title: 'Acme public status',
      entity_ids: [billingId],
      show_incidents: false,
    });

    await table.getByRole('button', { name: 'Delete Old page' }).click();
    await p.page
      .getByRole('dialog', { name: 'Delete Old page' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expectCount(table.getByRole('row'), 2);
    expect((await pages()).map((x) => x.slug)).toEqual(['acme']);
    expect((await fetch(`${rig.url}/p/old`)).status).toBe(404);
    // Drafts' auto-publish and who may read the page: a password page, its password write-only.
    expect(
      (await rig.api('POST', '/v1/status-pages', { slug: 'closed', title: 'Closed page', entity_ids: [] }))
        .status,
    ).toBe(201);
    await p.page.reload();
    await expectCount(table.getByRole('row'), 3);
    await table.getByRole('button', { name: 'Edit Closed page' }).click();
    const old = p.page.getByRole('form', { name: 'Edit Closed page' });
    await old.getByLabel(/^Publish drafts after/).fill('5');
    await old.getByLabel(/^Who may read it/).selectOption('password');
    await old.getByLabel(/^Page password/).fill('short');
    await old.getByRole('button', { name: 'Save status page' }).click();
    // Too short: the API's 400 shows at the field.
    await expect.poll(() => old.getByLabel(/^Page password/).getAttribute('aria-invalid')).toBe('true');
    await old.getByLabel(/^Page password/).fill('a long page password');
    await old.getByRole('button', { name: 'Save status page' }).click();
    await p.page.getByRole('form', { name: 'New status page' }).waitFor();
    expect((await pages()).find((x) => x.slug === 'closed')).toMatchObject({
      auto_publish_drafts_after_minutes: 5,
      visibility: 'password',
    });
    expect((await fetch(`${rig.url}/p/closed`)).status).toBe(401);
    await table.getByRole('button', { name: 'Edit Closed page' }).click();
    const again = p.page.getByRole('form', { name: 'Edit Closed page' });
    expect(await again.getByLabel(/^Publish drafts after/).inputValue()).toBe('5');
    expect(await again.getByLabel(/^Page password/).inputValue()).toBe('');
    await again.getByRole('button', { name: 'Cancel' }).click();

    expect((await rig.api('DELETE', '/v1/status-pages/closed')).status).toBe(204);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('sets a custom domain, shows the API’s refusals at the field, lists it and clears it', async () => {
    // Another page holds the spare domain: claiming it is the API's 409.
    expect(
      (
        await rig.api('POST', '/v1/status-pages', {
          slug: 'spare',
          title: 'Spare page',
          domain: SPARE_DOMAIN,
        })
      ).status,
    ).toBe(201);
    const p = await openSignedIn(rig, { path: '/status-pages' });
    const table = p.page.getByRole('table', { name: 'Status pages' });
    const row = table.getByRole('row').filter({ hasText: 'Acme public status' });
    await expectText(row.getByRole('cell').nth(4), 'None');
    await table.getByRole('button', { name: 'Edit Acme public status' }).click();
    const form = p.page.getByRole('form', { name: 'Edit Acme public status' });
    const domain = form.getByLabel(/^Custom domain/);
    expect(await domain.inputValue()).toBe('');

    // Off the server's list: the 400's words at the field.
    await domain.fill('status.other.test');
    await form.getByRole('button', { name: 'Save status page' }).click();
    await expect.poll(() => domain.getAttribute('aria-invalid'), { timeout: SHOWN_WITHIN_MS }).toBe('true');
    await expectText(form.locator('.field-error'), /does not serve this domain.*VIGIL_PAGE_DOMAINS/);
    // Held by another page: the 409 at the domain, not at the slug.
    await domain.fill(SPARE_DOMAIN);
    await form.getByRole('button', { name: 'Save status page' }).click();
    await expectText(form.locator('.field-error'), new RegExp(`${SPARE_DOMAIN} is taken`));
    expect(await domain.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel(/^Slug/).getAttribute('aria-invalid')).toBeNull();
    expect((await pages()).find((x) => x.slug === 'acme')?.domain).toBeNull();

    await domain.fill(ACME_DOMAIN);
    await form.getByRole('button', { name: 'Save status page' }).click();
    await p.page.getByRole('form', { name: 'New status page' }).waitFor();
    const link = row
      .getByRole('cell')
      .nth(4)
      .getByRole('link', { name: new RegExp(`^${ACME_DOMAIN}`) });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`https://${ACME_DOMAIN}/`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect((await pages()).find((x) => x.slug === 'acme')?.domain).toBe(ACME_DOMAIN);

    // The edit form shows the domain; emptied, the save clears it.
    await table.getByRole('button', { name: 'Edit Acme public status' }).click();
    const again = p.page.getByRole('form', { name: 'Edit Acme public status' });
    expect(await again.getByLabel(/^Custom domain/).inputValue()).toBe(ACME_DOMAIN);
    await again.getByLabel(/^Custom domain/).fill('');
    await again.getByRole('button', { name: 'Save status page' }).click();
    await p.page.getByRole('form', { name: 'New status page' }).waitFor();
    await expectText(row.getByRole('cell').nth(4), 'None');
    expect((await pages()).find((x) => x.slug === 'acme')?.domain).toBeNull();

    expect((await rig.api('DELETE', '/v1/status-pages/spare')).status).toBe(204);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('gives a read-only key the pages to read but no write control', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'wall',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/status-pages', key: created.body.key });
    const table = p.page.getByRole('table', { name: 'Status pages' });
    await expectText(table.getByRole('row').nth(1).getByRole('cell').nth(0), 'Acme public status');
    await expectCount(table.getByRole('columnheader'), 6);
    await expectCount(p.page.getByRole('button', { name: /Edit|Delete|Create status page|Save/ }), 0);
    await expectCount(p.page.locator('main form'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('serves the public page to a browser that never signed in: no key, no Authorization, CSP on, accessible', async () => {
    // Both entities again, incidents shown.
    const put = await rig.api('PUT', '/v1/status-pages/acme', {
      title: 'Acme public status',
      entity_ids: [billingId, searchId],
      show_incidents: true,
    });
    expect(put.status).toBe(200);
    // A written incident with two updates: its Markdown, its <details> and the archive links pass axe too.
    const written = await rig.api<{ id: string }>('POST', '/v1/status-pages/acme/incidents', {
      title: 'Billing errors',
      body: 'Looking into *it*.',
      impact: [{ entity_id: billingId, level: 'major_outage' }],
    });
    expect(written.status).toBe(201);
    const update = await rig.api('POST', `/v1/status-pages/acme/incidents/${written.body.id}/updates`, {
      status: 'identified',
      body: 'A bad deploy; see [the notice](https://example.com/notice).',
    });
    expect(update.status).toBe(201);
    // An announced maintenance window ahead over Search, with a note: its section passes axe too.
    const ahead = Date.now() + 2 * 3_600_000;
    const window = await rig.api('POST', '/v1/maintenance', {
      name: 'Search reindex',
      entity_ids: [searchId],
      starts_at: new Date(ahead).toISOString(),
      ends_at: new Date(ahead + 3_600_000).toISOString(),
      announce: true,
      public_note: 'Results may be *stale*:\n\n- for an hour\n- see [the plan](https://example.com/plan)',
    });
    expect(window.status).toBe(201);
    const context = await rig.browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: rig.url,
    });
    const page = await context.newPage();
    const authorized: string[] = [];
    const problems: string[] = [];
    onRequestHeaders(page, (req, headers) => {
      if (headers.authorization !== undefined) authorized.push(req.url());
    });
    page.on('console', (msg) => {
      // Answers outside 2xx are checked by URL below (Chromium's own favicon request is a 404).
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(msg.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico')
        problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('pageerror', (err) => problems.push(err.message));
    // Runs before the page's own content (through the DevTools protocol, so the CSP allows it).
    await page.addInitScript(
      "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));",
    );

    const res = await page.goto('/p/acme');
    expect(res?.status()).toBe(200);
    const headers = res?.headers() ?? {};
    expect(headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(headers['cache-control']).toBe('public, max-age=30');
    const html = (await res?.text()) ?? '';
    expect(html).not.toContain(rig.key);
    expect(html).not.toMatch(/<script/i);

    await page.getByRole('heading', { level: 1, name: 'Acme public status' }).waitFor();
    const entities = page.locator('li.entity').filter({ has: page.locator('.bars') });
    await expectCount(entities, 2);
    // Down by its checks, and a major outage by the open incident written of it: the incident's word.
    await expectText(entities.nth(0).locator('.row'), 'BillingMajor outage');
    await expectText(entities.nth(1).locator('.row'), 'SearchOperational');
    await expectText(page.getByRole('status'), 'Some systems are down');
    await page.getByRole('heading', { name: 'Current incidents' }).waitFor();
    const notice = page.getByRole('link', { name: 'the notice' });
    expect(await notice.getAttribute('rel')).toBe('nofollow noopener');
    await page.getByText('Earlier updates (1)').waitFor();
    await page.getByRole('navigation', { name: 'Incident archive' }).waitFor();
    const maintenance = page.getByRole('heading', { name: 'Maintenance' }).locator('+ ul li');
    await expectText(maintenance.locator('h3'), 'Search reindex');
    await expectText(maintenance.locator('.meta').nth(0), /^Scheduled maintenance, .+ UTC to .+ UTC$/);
    await expectText(maintenance.locator('.meta').nth(1), 'Affects Search');
    expect(await maintenance.getByRole('link', { name: 'the plan' }).getAttribute('rel')).toBe(
      'nofollow noopener',
    );
    // One list of current incidents: the written ones, then those the checks opened.
    await expectText(
      page.getByRole('heading', { name: 'Current incidents' }).locator('+ ul li.entity'),
      /^Billing: open since/,
    );
    // The bars: a 90-column grid, its elements spanning the 90 days, visible; today below 100 % for Billing.
    // (Strings: the test program is compiled without the DOM's types.)
    const grid = await page.evaluate<{ columns: number; spans: number; height: number }[]>(
      `[...document.querySelectorAll('.bars')].map((el) => ({
        columns: getComputedStyle(el).gridTemplateColumns.split(' ').length,
        spans: [...el.children].reduce((n, i) => n + Number(/\\bs(\\d+)\\b/.exec(i.className)?.[1] ?? 1), 0),
        height: el.getBoundingClientRect().height,
      }))`,
    );
    expect(grid).toEqual([
      { columns: 90, spans: 90, height: 26 },
      { columns: 90, spans: 90, height: 26 },
    ]);
    expect(await entities.nth(0).locator('.bars i').last().getAttribute('class')).toBe('b1');
    expect(await entities.nth(0).locator('.bars i').last().getAttribute('title')).toMatch(/: 50\.00%$/);
    await expectText(entities.nth(0).locator('.vh'), /below 100% on 1 day, lowest 50\.00%/);

    expect(await audit(page)).toEqual([]);
    expect(await page.evaluate<string[]>('window.__violations')).toEqual([]);
    expect(problems).toEqual([]);
    await screenshot(page, 'status-page-public');
    // The listener hears a violation when there is one (an image from another origin is refused).
    await page.evaluate(
      "document.body.append(Object.assign(new Image(), { src: 'http://127.0.0.2:9/x.png' }))",
    );
    await expect
      .poll(() => page.evaluate<string[]>('window.__violations'), { timeout: SHOWN_WITHIN_MS })
      .toEqual(['img-src']);

    expect(await page.evaluate<number>('localStorage.length + sessionStorage.length')).toBe(0);
    expect(await context.cookies()).toEqual([]);

    const badge = await page.goto('/p/acme/badge.svg');
    expect(badge?.status()).toBe(200);
    expect(badge?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = page.locator('svg');
    expect(await svg.isVisible()).toBe(true);
    expect((await svg.boundingBox())?.width).toBeGreaterThan(50);
    expect(await svg.textContent()).toContain('down');

    expect(await page.evaluate<number>('localStorage.length + sessionStorage.length')).toBe(0);
    expect(await context.cookies()).toEqual([]);
    expect(authorized).toEqual([]);
    await context.close();
  });
});
