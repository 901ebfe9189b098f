import { describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, seedCheck, useConsole } from './use-console.ts';

/** Write controls the status and entity pages must not have for a read-only key (nor have at all). */
const WRITE_BUTTONS = /create|new|add|edit|save|delete|remove|run|send|retry|pause|resume/i;

describe('console status and entity pages', { timeout: 60_000 }, () => {
  let checkId = '';

  const push = async (success: boolean) => {
    const res = await rig.api('POST', `/v1/checks/${checkId}/results`, {
      success,
      latency_ms: success ? 40 : 900,
      ...(success ? {} : { error_message: 'connection refused', status_code: 503 }),
    });
    expect(res.status).toBe(201);
  };

  const rig = useConsole({
    seed: async (rig) => {
      const bp = await rig.api('POST', '/v1/blueprints', {
        slug: 'service',
        name: 'Service',
        fields: [
          { name: 'team', field_type: 'string', sort_order: 1 },
          { name: 'docs', field_type: 'url', sort_order: 2 },
          { name: 'tier', field_type: 'number', sort_order: 3 },
        ],
      });
      expect(bp.status).toBe(201);
      const entity = await rig.api('POST', '/v1/blueprints/service/entities', {
        slug: 'checkout',
        name: 'Checkout',
        fields: { team: 'payments', docs: 'https://docs.example.test/checkout', tier: 1 },
      });
      expect(entity.status).toBe(201);
      checkId = await seedCheck(rig, {
        entity_id: (entity.body as { id: string }).id,
        check_type: 'push',
        interval_seconds: 3600,
        failure_threshold: 1,
      });
      await push(true);
    },
  });

  it('follows a check going down and up again live, without a reload', async () => {
    const p = await openSignedIn(rig, { path: '/status' });
    const { page } = p;
    await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor();
    await page.locator('.live-indicator', { hasText: /^live$/ }).waitFor();
    const count = (state: string) => page.getByTestId(`count-${state}`).locator('.n');
    await expectText(count('up'), '1');
    await expectText(count('total'), '1');
    // The default filter shows problems only: nothing is down or degraded yet.
    await page.getByText('Nothing is down or degraded.').waitFor();
    // A marker that a reload would wipe.
    await page.evaluate('window.__noReload = true');

    await push(false);
    // Live: the page is never reloaded (the marker) and polls nothing, so only the stream moves it.
    await expectText(count('down'), '1');
    const row = page.getByRole('row', { name: /Checkout/ });
    await row.getByText('down', { exact: true }).waitFor();
    expect(await row.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe(
      '/entities/service/checkout',
    );
    const feed = page.getByRole('list', { name: 'State changes, newest first' });
    await feed
      .getByRole('listitem')
      .filter({ hasText: 'Checkout' })
      .filter({ hasText: /consecutive failure/ })
      .first()
      .waitFor();
    await screenshot(page, 'status');

    await push(true);
    await expectText(count('down'), '0');
    await expectText(count('up'), '1');
    await page.getByText('Nothing is down or degraded.').waitFor();
    await page.getByRole('tab', { name: 'All' }).click();
    await page
      .getByRole('row', { name: /Checkout/ })
      .getByText('up', { exact: true })
      .waitFor();
    await page.getByRole('heading', { name: 'Service', level: 3 }).waitFor();
    await expect.poll(() => feed.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate('window.__noReload === true')).toBe(true);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows the entity page on a fresh load: fields, checks, charts, results and transitions', async () => {
    const p = await openSignedIn(rig, { path: '/entities/service/checkout' });
    const { page } = p;
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.getByText('payments').waitFor();
    // A url field becomes a link once the blueprint's field types are read (a query of its own).
    await expectCount(page.getByRole('link', { name: 'https://docs.example.test/checkout' }), 1);
    const checkLink = page.getByRole('link', { name: /^Push check for checkout, every / });
    expect(await checkLink.getAttribute('href')).toBe(`/checks/${checkId}`);
    await page.locator('.chart canvas').first().waitFor();
    const chart = page.getByRole('img', { name: /^Latency, 24 h: 3 results, 1 failure, p50 \d+ ms$/ });
    await chart.waitFor();
    const results = page.getByRole('table', { name: 'Recent results' });
    await expectCount(results.getByRole('row'), 4);
    await results.getByText('connection refused').waitFor();
    const transitions = page.getByRole('list', { name: 'Check transitions, newest first' });
    await expect.poll(() => transitions.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'entity');

    await page.goto('/entities/service/no-such-entity');
    await page.getByRole('heading', { name: 'Entity not found' }).waitFor();
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('fits a 390 px screen', async () => {
    const p = await openSignedIn(rig, { path: '/status', width: 390 });
    await p.page.getByRole('tab', { name: 'All' }).click();
    await p.page.getByRole('row', { name: /Checkout/ }).waitFor();
    const overflow = await p.page.evaluate<number>(
      'document.documentElement.scrollWidth - window.innerWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(p.page, 'status-mobile');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key no write controls on the status and entity pages', async () => {
    const created = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    expect(created.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/status', key: created.body.key });
    const { page } = p;
    await page.locator('.live-indicator', { hasText: /^live$/ }).waitFor();
    await page.getByTestId('count-total').getByText('1').waitFor();
    await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0);
    await page.goto('/entities/service/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    // Loaded: the results table holds a row of data (its header is row 0).
    await page.getByRole('table', { name: 'Recent results' }).getByRole('row').nth(1).waitFor();
    await expectCount(page.getByRole('button', { name: WRITE_BUTTONS }), 0);
    await expectCount(page.locator('form'), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('keeps the state tab and the blueprint filter in the URL: a reload and a shared link show them', async () => {
    expect((await rig.api('POST', '/v1/blueprints', { slug: 'host', name: 'Host' })).status).toBe(201);
    const host = await rig.api('POST', '/v1/blueprints/host/entities', { slug: 'db-1', name: 'Db one' });
    expect(host.status).toBe(201);
    const p = await openSignedIn(rig, { path: '/status' });
    const { page } = p;
    await page.getByRole('tab', { name: 'All' }).click();
    await page.getByLabel('Blueprint').selectOption('host');
    await page.getByRole('row', { name: /Db one/ }).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('?state=all&blueprint=host');

    await page.reload();
    await page.getByRole('row', { name: /Db one/ }).waitFor();
    expect(await page.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByLabel('Blueprint').inputValue()).toBe('host');
    await expectCount(page.getByRole('row', { name: /Checkout/ }), 0);

    await page.goto('/status?state=unknown');
    await page.getByRole('row', { name: /Db one/ }).waitFor();
    expect(await page.getByRole('tab', { name: 'Unknown' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'Problems' }).click();
    await page.getByText('Nothing is down or degraded.').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
