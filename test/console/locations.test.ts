import { describe, expect, it } from 'vitest';
import { audit, expectCount, expectNoConsoleErrors, expectText } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The Locations page against a real local runtime: `default` listed online; an admin creates a
 * location through the form and gets its key once; the location turns online after a heartbeat
 * with that key; a second key is made and the first revoked from the page (the agent is refused at
 * once); a read-only key sees the list and no write control.
 */

interface Location {
  id: string;
  name: string;
  state: string;
}

describe('console locations', { timeout: 90_000 }, () => {
  const beat = (key: string) => rig.api('POST', '/v1/agent/heartbeat', { version: '2.0.0' }, key);

  const rig = useConsole();

  it('creates a location with its key shown once; a heartbeat turns it online; a revoked key is refused', async () => {
    const p = await openSignedIn(rig);
    await p.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
    await p.page.getByRole('heading', { level: 1, name: 'Locations' }).waitFor();
    const table = p.page.getByRole('table', { name: 'Locations' });
    await expectCount(table.getByRole('row'), 2);
    const runtime = table.getByRole('row').nth(1).getByRole('cell');
    await expectText(runtime.nth(0), 'default');
    await expectText(runtime.nth(2), 'online');

    const form = p.page.getByRole('form', { name: 'Create a location' });
    await form.getByLabel(/^Name/).fill('office');
    await form.getByLabel('Kind').selectOption('agent');
    await form.getByRole('button', { name: 'Create location' }).click();
    const shown = p.page.getByRole('figure', { name: 'New location key' }).locator('code');
    await shown.waitFor();
    const key = (await shown.textContent()) ?? '';
    expect(key).toMatch(/^vlk_[0-9A-Za-z]{40}$/);
    await expectCount(table.getByRole('row'), 3);
    const office = table.getByRole('row').filter({ hasText: 'office' }).getByRole('cell');
    await expectText(office.nth(1), 'private agent');
    await expectText(office.nth(2), 'offline');
    await expectText(office.nth(3), 'never');
    await p.page.getByRole('button', { name: 'I have copied it' }).click();
    await expectCount(p.page.getByRole('figure', { name: 'New location key' }), 0);

    expect((await beat(key)).status).toBe(200);
    await p.page.reload();
    await expectText(office.nth(2), 'online');
    await expectText(office.nth(4), '2.0.0');

    // A second key, then the first one revoked: the agent holding it is refused at once.
    await p.page.getByRole('button', { name: 'Keys of office' }).click();
    const keys = p.page.getByRole('list', { name: 'Keys of office' });
    await expectCount(keys.getByRole('listitem'), 1);
    await p.page.getByRole('button', { name: 'New key for office' }).click();
    const second =
      (await p.page.getByRole('figure', { name: 'New location key' }).locator('code').textContent()) ?? '';
    await expectCount(keys.getByRole('listitem'), 2);
    await keys.getByRole('button', { name: `Revoke ${key.slice(0, 12)}…` }).click();
    await p.page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expectCount(keys.getByRole('listitem'), 1);
    expect((await beat(key)).status).toBe(401);
    expect((await beat(second)).status).toBe(200);
    const stored = await rig.api<{ locations: Location[] }>('GET', '/v1/locations');
    expect(stored.body.locations.map((l) => [l.name, l.state])).toEqual([
      ['default', 'online'],
      ['office', 'online'],
    ]);
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a read-only key the locations and no control that writes', async () => {
    const made = await rig.api<{ key: string }>('POST', '/v1/auth/keys', {
      label: 'viewer',
      is_read_only: true,
    });
    const p = await openSignedIn(rig, { path: '/locations', key: made.body.key });
    const table = p.page.getByRole('table', { name: 'Locations' });
    await expectCount(table.getByRole('row'), 3);

    await expectCount(p.page.getByRole('form', { name: 'Create a location' }), 0);
    await expectCount(table.getByRole('button'), 0);
    await expectCount(table.getByRole('columnheader', { name: 'Actions' }), 0);
    expectNoConsoleErrors(p);
    await p.close();
  });
  for (const width of [1280, 390]) {
    it(`has no axe violations at ${width} px, a location's keys and a fresh key shown`, async () => {
      const p = await openSignedIn(rig, { path: '/locations', width });
      await p.page.getByRole('button', { name: 'Keys of office' }).click();
      await p.page.getByRole('button', { name: 'New key for office' }).click();
      await p.page.getByRole('figure', { name: 'New location key' }).waitFor();
      await expectCount(p.page.getByText(/^Loading/), 0);

      const violations = await audit(p.page);
      const overflow = await p.page.evaluate<number>(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );

      expect(violations).toEqual([]);
      expect(overflow).toBeLessThanOrEqual(0);
      expectNoConsoleErrors(p);
      await p.close();
    });
  }
});
